import { ContractError } from "@bounded-mcp/contract";
import { JSONPath } from "jsonpath-plus";
import { createRecord } from "./json-values.js";

/** jsonpath-plus type selectors such as `@string()`: filters on type, not scripts. */
const TYPE_SELECTOR =
  /@(?:null|boolean|number|string|integer|undefined|nonFinite|scalar|array|object|function)\(\)/g;
/** jsonpath-plus keeps every parsed expression in a global cache; it is emptied past this size. */
const MAX_CACHED_EXPRESSIONS = 512;

interface JsonPathMatch {
  pointer: string;
  value: unknown;
  parent: unknown;
  parentProperty: string | number | null;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * jsonpath-plus also reads what is no JSON member: an array's or a string's `length`, a string's
 * characters (`$.name[0]`). Such a row's pointer resolves on nothing, so it is dropped.
 */
function isJsonMember(match: JsonPathMatch): boolean {
  if (match.value === undefined || typeof match.parent === "string") return false;
  const property = match.parentProperty;
  return !(
    Array.isArray(match.parent) &&
    typeof property === "string" &&
    !ARRAY_INDEX.test(property)
  );
}

function refuse(jsonPath: string, why: string, cause?: unknown): ContractError {
  return new ContractError({
    code: "INVALID_RESPONSE_CONTROLS",
    message: `jsonPath "${jsonPath}" ${why} Use a path of names, indices, wildcards, slices and "..", then fields and filters to narrow the rows.`,
    details: { field: "jsonPath", expected: "a JSONPath selector without script expressions" },
    cause,
  });
}

/**
 * Whether a JSONPath has a `?` outside its quoted names, or a quote it never closes: a filter
 * selector, with parentheses (`[?(@.a > 2)]`) or without them as RFC 9535 writes it
 * (`[?@.a > 2]`), which jsonpath-plus with evaluation off would read as selecting nothing rather
 * than refuse. A name is quoted as jsonpath-plus reads one: a quote right after `[` (spaces
 * allowed) up to the next same quote, a backslash meaning nothing (`$['x\']` is the key `x\`).
 */
function hasFilterSelector(jsonPath: string): boolean {
  for (let index = 0; index < jsonPath.length; index += 1) {
    const character = jsonPath[index];
    if (character === "?") return true;
    if (character !== "[") continue;
    let next = index + 1;
    while (jsonPath[next] === " ") next += 1;
    const quote = jsonPath[next];
    if (quote !== "'" && quote !== '"') continue;
    const close = jsonPath.indexOf(quote, next + 1);
    if (close < 0) return true;
    index = close;
  }
  return false;
}

/**
 * Selects rows `{pointer, value}` with a JSONPath expression (the `jsonPath` extension) using
 * jsonpath-plus with script evaluation disabled. Script and filter forms (`?(...)`, `?@...`,
 * `(...)`, `@other()`) are refused with INVALID_RESPONSE_CONTROLS before evaluation; a syntax error is refused the
 * same way. Pointers are absolute from the document root; rows are prototype-free objects.
 */
export function selectJsonPathRows(document: unknown, jsonPath: string): Record<string, unknown>[] {
  if (hasFilterSelector(jsonPath) || jsonPath.replace(TYPE_SELECTOR, "").includes("(")) {
    throw refuse(jsonPath, "contains a script or filter expression, which is never evaluated.");
  }
  const cache = JSONPath.cache as Record<string, unknown>;
  if (Object.keys(cache).length > MAX_CACHED_EXPRESSIONS) JSONPath.cache = {};
  let matches: JsonPathMatch[] | undefined;
  try {
    matches = JSONPath({
      path: jsonPath,
      json: document as object,
      resultType: "all",
      eval: false,
      wrap: true,
    }) as JsonPathMatch[] | undefined;
  } catch (error) {
    throw refuse(jsonPath, "could not be evaluated.", error);
  }
  if (matches === undefined) {
    return jsonPath.trim() === "$" ? [createRow("", document)] : [];
  }
  return matches.filter(isJsonMember).map((match) => createRow(match.pointer, match.value));
}

function createRow(pointer: string, value: unknown): Record<string, unknown> {
  const row = createRecord();
  row.pointer = pointer;
  row.value = value;
  return row;
}

/** A `.length` (or `['length']`) step: jsonpath-plus reads a length there, which is no JSON member. */
const LENGTH_STEP = /(?:\.length\b|\[\s*['"]length['"]\s*\])/;

/**
 * The warning of a jsonPath that selected no row, so an empty page is not mistaken for "nothing
 * matches": it says so, and when the expression reads `.length` (a length has no JSON Pointer, so
 * it is never a row), that a length is compared, sorted or aggregated with `measure: "length"`.
 */
export function emptyJsonPathWarning(jsonPath: string): string {
  const hint = LENGTH_STEP.test(jsonPath)
    ? ' ".length" is not JSONPath here: a length is no JSON member (it has no pointer), so it is never a row. To compare, sort or aggregate lengths, select the collection and use measure "length" on a filter, sort key or metric, e.g. filters [{"path": "/options", "measure": "length", "op": "gt", "value": 10}].'
    : ' Check the member names with describe (JSONPath here: names, indices, wildcards, slices and "..").';
  return `jsonPath "${jsonPath}" selected nothing, so there are no rows.${hint}`;
}
