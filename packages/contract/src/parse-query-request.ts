import type { z } from "zod";
import type { ErrorObject } from "./error-object.js";
import {
  cloneKeepingExact,
  holdsExactFilterValue,
  withExactFilterValuesAsZero,
} from "./exact-filter-values.js";
import { FILTER_KEYS, FILTER_OPS } from "./filter.js";
import { DEFAULT_LIMITS, QUERY_TOOL_NAME } from "./limits.js";
import { findTooDeep } from "./nesting.js";
import { parseCommonRequest } from "./parse-common-request.js";
import { AGGREGATE_KEYS, METRIC_KEYS, METRIC_OPS, SORT_KEYS } from "./query-extensions.js";
import {
  QUERY_REQUEST_KEYS,
  type QueryRequest,
  QueryRequestSchema,
  TEXT_SEARCH_KEYS,
} from "./query-request.js";
import { cutString } from "./text-limits.js";

/** The outcome of parseQueryRequest: the request, or the one error envelope payload to return. */
export type ParseQueryRequestResult =
  | { success: true; data: QueryRequest }
  | { success: false; error: ErrorObject };

const L = DEFAULT_LIMITS;

/** Objects and arrays nested deeper than this (from the arguments' root) are refused. */
const MAX_ARGUMENT_DEPTH = 64;

/** What each argument must be, by its path with indexes replaced by `[]`. */
const EXPECTED: Readonly<Record<string, string>> = {
  "": "an object of query arguments, at least {artifactId}",
  artifactId: "a string: responseMeta.artifact.id of the bounded result",
  responsePath: `an RFC 6901 pointer string of at most ${L.maxPathChars} characters ("" = the whole document)`,
  describe: "a boolean",
  objectMode: 'the string "entries"',
  fields: `an array of at most ${L.maxFields} strings (item keys or pointers)`,
  "fields[]": `a string of at most ${L.maxPathChars} characters (an item key or a pointer)`,
  filters: `an array of at most ${L.maxFilters} filters {path, op?, value?, measure?} or {anyOf: [...]}`,
  "filters[]": `an object {path, op?, value?, measure?}, or {anyOf: [${L.minAnyOf} to ${L.maxAnyOf} such filters]}`,
  "filters[].path": `a string of at most ${L.maxPathChars} characters (an item key or a pointer)`,
  "filters[].op": `one of ${FILTER_OPS.join(", ")} (default eq)`,
  "filters[].value": "a JSON value",
  "filters[].measure": 'the string "length"',
  "filters[].anyOf": `an array of ${L.minAnyOf} to ${L.maxAnyOf} filters {path, op?, value?, measure?} (one level: no anyOf inside)`,
  "filters[].anyOf[]": "an object {path, op?, value?, measure?} (no anyOf inside an anyOf)",
  "filters[].anyOf[].path": `a string of at most ${L.maxPathChars} characters (an item key or a pointer)`,
  "filters[].anyOf[].op": `one of ${FILTER_OPS.join(", ")} (default eq)`,
  "filters[].anyOf[].value": "a JSON value",
  "filters[].anyOf[].measure": 'the string "length"',
  sort: `an array of 1 to ${L.maxSortKeys} sort keys {path, order?, measure?}`,
  "sort[]": "an object {path, order?, measure?}",
  "sort[].path": `a string of at most ${L.maxPathChars} characters (an item key, a pointer, or with aggregate a row label)`,
  "sort[].order": "one of asc, desc (default asc)",
  "sort[].measure": 'the string "length"',
  aggregate: "an object {groupBy?, unwind?, metrics?}",
  "aggregate.groupBy": `a path, or an array of 1 to ${L.maxGroupBy} paths`,
  "aggregate.groupBy[]": `a string of at most ${L.maxPathChars} characters (an item key or a pointer)`,
  "aggregate.unwind": "a boolean (default false)",
  "aggregate.metrics": `an array of 1 to ${L.maxMetrics} metrics {op, path?, measure?} (default [{op: "count"}])`,
  "aggregate.metrics[]": "an object {op, path?, measure?}",
  "aggregate.metrics[].op": `one of ${METRIC_OPS.join(", ")}`,
  "aggregate.metrics[].path": `a string of at most ${L.maxPathChars} characters (an item key or a pointer)`,
  "aggregate.metrics[].measure": 'the string "length"',
  textSearch: "an object {query, caseSensitive?}",
  "textSearch.query": `a string of ${L.minTextSearchQueryChars} to ${L.maxTextSearchQueryChars} characters`,
  "textSearch.caseSensitive": "a boolean (default false)",
  pageSize: `an integer from ${L.minPageSize} to ${L.maxPageSize} (default ${L.pageSize})`,
  cursor: "a string: responseMeta.nextCursor of the previous page, other arguments unchanged",
  jsonPath: `a JSONPath string of at most ${L.maxPathChars} characters`,
};

/** The keys an object accepts, by its path with indexes replaced by `[]`. */
const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  "": QUERY_REQUEST_KEYS,
  "filters[]": [...FILTER_KEYS, "anyOf"],
  "filters[].anyOf[]": FILTER_KEYS,
  textSearch: TEXT_SEARCH_KEYS,
  "sort[]": SORT_KEYS,
  aggregate: AGGREGATE_KEYS,
  "aggregate.metrics[]": METRIC_KEYS,
};

/** Names that are not case variants but clearly mean one argument. */
const SYNONYMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "": {
    limit: "pageSize",
    filter: "filters",
    field: "fields",
    path: "responsePath",
    orderby: "sort",
    sortby: "sort",
    aggregation: "aggregate",
  },
  "filters[]": { operator: "op", or: "anyOf", any: "anyOf" },
  "filters[].anyOf[]": { operator: "op" },
  textSearch: {},
  "sort[]": { direction: "order", dir: "order" },
  aggregate: { group: "groupBy", metric: "metrics" },
  "aggregate.metrics[]": { operator: "op", field: "path" },
};

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** A known key an unknown one stands for: a case variant (artifact_id) or a synonym (limit). */
interface KeySuggestion {
  key: string;
  caseVariant: boolean;
}

function suggestKey(
  unknownKey: string,
  knownKeys: readonly string[],
  context: string,
): KeySuggestion | undefined {
  const normalized = normalizeKey(unknownKey);
  const match = knownKeys.find((key) => normalizeKey(key) === normalized);
  if (match !== undefined) return { key: match, caseVariant: true };
  // Own keys only: "constructor" must not find Object.prototype.constructor.
  const synonyms = SYNONYMS[context];
  if (synonyms === undefined || !Object.hasOwn(synonyms, normalized)) return undefined;
  const synonym = synonyms[normalized];
  return synonym === undefined ? undefined : { key: synonym, caseVariant: false };
}

/** ["filters", 2, "op"] -> "filters[2].op", or "filters[].op" with `indexes: false`. */
function formatField(path: readonly PropertyKey[], indexes = true): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += indexes ? `[${segment}]` : "[]";
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** ["filters", 2, "op"] -> "filters[].op": the key of EXPECTED, KNOWN_KEYS and SYNONYMS. */
function patternOf(path: readonly PropertyKey[]): string {
  return formatField(path, false);
}

function joinField(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}

function echo(text: string): string {
  return cutString(text, L.maxEchoChars);
}

/** "one of the keys a, b", written tighter when that would be cut as an echo (> 120 characters). */
function expectedKeys(known: readonly string[]): string {
  const spaced = `one of the keys ${known.join(", ")}`;
  return spaced.length <= L.maxEchoChars ? spaced : `one of ${known.join(",")}`;
}

function unknownKeyError(issue: z.core.$ZodIssueUnrecognizedKeys): ErrorObject {
  const parent = formatField(issue.path);
  const pattern = patternOf(issue.path);
  const known = KNOWN_KEYS[pattern] ?? [];
  const key = issue.keys[0] ?? "";
  const field = echo(joinField(parent, key));
  if (known.includes(key)) {
    // A known key the schema refused: it belongs to the other form of this object (a filter's
    // path beside anyOf).
    const expected = EXPECTED[pattern] ?? expectedKeys(known);
    return {
      code: "INVALID_RESPONSE_CONTROLS",
      message: `Argument "${field}" cannot go with the other keys of this object: expected ${expected}. Correct it and call ${QUERY_TOOL_NAME} again.`,
      details: { field, expected },
    };
  }
  const suggestion = suggestKey(key, known, pattern);
  const expected = expectedKeys(known);
  if (suggestion !== undefined) {
    const corrected = joinField(parent, suggestion.key);
    const why = suggestion.caseVariant ? "arguments are camelCase, use" : "use";
    return {
      code: "INVALID_RESPONSE_CONTROLS",
      message: `Unknown argument "${field}": ${why} "${corrected}" instead and call ${QUERY_TOOL_NAME} again.`,
      details: { field, expected, suggestedKey: suggestion.key },
    };
  }
  return {
    code: "INVALID_RESPONSE_CONTROLS",
    message: `Unknown argument "${field}": remove it and call ${QUERY_TOOL_NAME} again; accepted keys here are ${known.join(", ")}.`,
    details: { field, expected },
  };
}

function isMissing(issue: z.core.$ZodIssue, input: unknown): boolean {
  if (issue.code !== "invalid_type") return false;
  let value: unknown = input;
  for (const segment of issue.path) {
    if (value === null || typeof value !== "object") return true;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value === undefined;
}

function invalidValueError(issue: z.core.$ZodIssue, input: unknown): ErrorObject {
  const field = formatField(issue.path);
  const params = issue.code === "custom" ? (issue.params ?? {}) : {};
  const expected =
    typeof params["expected"] === "string"
      ? params["expected"]
      : (EXPECTED[patternOf(issue.path)] ?? "a valid value");
  if (typeof params["conflictsWith"] === "string") {
    const other = params["conflictsWith"];
    const fix =
      params["drop"] === true
        ? `Drop ${field}: ${expected}. Then call ${QUERY_TOOL_NAME} again.`
        : `Send ${other} or ${field} alone, then call ${QUERY_TOOL_NAME} again.`;
    return {
      code: "INVALID_RESPONSE_CONTROLS",
      message: `Conflicting arguments: ${field} cannot be combined with ${other}. ${fix}`,
      details: { field, expected, conflictsWith: other },
    };
  }
  if (field === "") {
    return {
      code: "INVALID_RESPONSE_CONTROLS",
      message: `The arguments must be ${expected}; call ${QUERY_TOOL_NAME} with responseMeta.artifact.id as artifactId.`,
      details: { field, expected },
    };
  }
  const verb = isMissing(issue, input) ? "Missing required argument" : "Invalid argument";
  return {
    code: "INVALID_RESPONSE_CONTROLS",
    message: `${verb} ${field}: expected ${expected}. Correct it and call ${QUERY_TOOL_NAME} again.`,
    details: { field, expected },
  };
}

function toError(issue: z.core.$ZodIssue, input: unknown): ErrorObject {
  return issue.code === "unrecognized_keys"
    ? unknownKeyError(issue)
    : invalidValueError(issue, input);
}

/** The value at a path of the input, or undefined when it is not there. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/**
 * Which branch of a union the caller meant, by what they sent: a filter with an `anyOf` key is
 * an anyOf filter (branch 1), else a plain one; a groupBy array is a list of paths (branch 1).
 */
function intendedBranch(path: readonly PropertyKey[], input: unknown): number {
  const value = valueAt(input, path);
  const pattern = patternOf(path);
  if (pattern === "filters[]") {
    return value !== null && typeof value === "object" && Object.hasOwn(value, "anyOf") ? 1 : 0;
  }
  if (pattern === "aggregate.groupBy") return Array.isArray(value) ? 1 : 0;
  return 0;
}

/** A union's problems as those of the branch the caller meant, with paths from the root. */
function flattenUnions(issues: readonly z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
    const branch = issue.errors[intendedBranch(issue.path, input)] ?? issue.errors[0] ?? [];
    const rooted = branch.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
    return flattenUnions(rooted as z.core.$ZodIssue[], input);
  });
}

/** One problem per unknown key, unknown keys first (fixing a misspelt name fixes its twin). */
function splitIssues(issues: readonly z.core.$ZodIssue[], input: unknown): z.core.$ZodIssue[] {
  const unknown: z.core.$ZodIssue[] = [];
  const other: z.core.$ZodIssue[] = [];
  for (const issue of flattenUnions(issues, input)) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) unknown.push({ ...issue, keys: [key] });
    } else {
      other.push(issue);
    }
  }
  return [...unknown, ...other];
}

function fieldOf(issue: z.core.$ZodIssue): string {
  const parent = formatField(issue.path);
  return issue.code === "unrecognized_keys" ? joinField(parent, issue.keys[0] ?? "") : parent;
}

/** " 2 other problems in this call (also check: a, b)." or "" when there is only one. */
function othersNote(others: readonly z.core.$ZodIssue[]): string {
  if (others.length === 0) return "";
  const fields = [...new Set(others.map(fieldOf).filter((field) => field !== ""))]
    .slice(0, 5)
    .map(echo);
  const where = fields.length > 0 ? ` (also check: ${fields.join(", ")})` : "";
  const plural = others.length === 1 ? "" : "s";
  return ` ${others.length} other problem${plural} in this call${where}.`;
}

/** Drops "missing X" problems when an unknown alias of X was sent (artifact_id for artifactId). */
function withoutAliasTwins(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
): z.core.$ZodIssue[] {
  const suggested = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const pattern = patternOf(issue.path);
    const suggestion = suggestKey(issue.keys[0] ?? "", KNOWN_KEYS[pattern] ?? [], pattern);
    if (suggestion !== undefined) suggested.add(joinField(formatField(issue.path), suggestion.key));
  }
  return issues.filter((issue) => !(isMissing(issue, input) && suggested.has(fieldOf(issue))));
}

/** The error for input that is not a JSON object of arguments at all. */
function notAnObjectError(): ErrorObject {
  const expected = EXPECTED[""] ?? "";
  return {
    code: "INVALID_RESPONSE_CONTROLS",
    message: `Invalid arguments for ${QUERY_TOOL_NAME}: expected ${expected}.`,
    details: { field: "", expected },
  };
}

function tooDeepError(path: readonly PropertyKey[]): ErrorObject {
  const field = echo(formatField(path.slice(0, 3)));
  const expected = `JSON nested at most ${MAX_ARGUMENT_DEPTH} levels deep`;
  return {
    code: "INVALID_RESPONSE_CONTROLS",
    message: `Invalid argument ${field}: expected ${expected}. Send a flatter value and call ${QUERY_TOOL_NAME} again.`,
    details: { field, expected },
  };
}

function parseChecked(input: unknown): ParseQueryRequestResult {
  // Checked before the schema, whose recursive JSON-value check would overflow the stack.
  const tooDeep = findTooDeep(input, MAX_ARGUMENT_DEPTH);
  if (tooDeep !== null) return { success: false, error: tooDeepError(tooDeep) };
  // A filter value may be an ExactNumber read from the raw request (SPEC.md §10); the schema
  // sees it as a number and the data keeps it.
  const exact = holdsExactFilterValue(input);
  const parsed = QueryRequestSchema.safeParse(exact ? withExactFilterValuesAsZero(input) : input);
  // zod rebuilds records by assignment, which turns a "__proto__" key of a filter value into a
  // prototype; the validated input, cloned, keeps it as data (the schema has no transforms).
  if (parsed.success) {
    const data = exact ? cloneKeepingExact(input) : structuredClone(input);
    return { success: true, data: data as QueryRequest };
  }
  const [first, ...others] = splitIssues(parsed.error.issues, input);
  if (first === undefined) return { success: false, error: notAnObjectError() };
  const error = toError(first, input);
  error.message += othersNote(withoutAliasTwins([first, ...others], input).slice(1));
  return { success: false, error };
}

/**
 * Validates the arguments of query_response_artifact against the strict contract (SPEC.md §3) and turns
 * the first problem into the one error the caller sees: INVALID_RESPONSE_CONTROLS with `details`
 * `{field, expected, suggestedKey?}` (`field` the dotted, indexed path such as "filters[2].op";
 * `suggestedKey` the camelCase name of a snake_case or other case variant). Conflicting arguments
 * add `details.conflictsWith`. When several problems exist the message names the others, so the
 * caller can fix them in one go. `undefined` arguments count as `{}`. Values nested deeper than
 * 64 levels (or cyclic) are refused before the schema runs. On success `data` is a copy of the
 * input (no defaults filled in; `__proto__` keys stay data). A number inside a filter value may
 * be an ExactNumber (query-core's, recognised by its `EXACT_NUMBER_BRAND`: a literal of the raw
 * request a double does not hold, SPEC.md §10); it is checked as a number and kept by reference.
 * Anywhere else, and any other object where a number is expected, is refused as before. Never throws: input that cannot be
 * read (a throwing getter, a revoked proxy) is reported as not an object of arguments.
 */
export function parseQueryRequest(input: unknown): ParseQueryRequestResult {
  try {
    const argumentsValue = input === undefined ? {} : input;
    // The shapes every later page of a view sends are checked by hand (no schema run, no
    // structuredClone); everything else, and every error, goes through the schema.
    const common = parseCommonRequest(argumentsValue);
    if (common !== undefined) return { success: true, data: common };
    return parseChecked(argumentsValue);
  } catch {
    return { success: false, error: notAnObjectError() };
  }
}

/**
 * parseQueryRequest without its hand-written check of the common shapes: the schema alone. For
 * the tests that pin the two to the same outcomes; not exported by the package.
 */
export function parseQueryRequestBySchema(input: unknown): ParseQueryRequestResult {
  try {
    return parseChecked(input === undefined ? {} : input);
  } catch {
    return { success: false, error: notAnObjectError() };
  }
}
