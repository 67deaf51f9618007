import { FILTER_OPS, METRIC_OPS, QUERY_REQUEST_KEYS, SORT_ORDERS } from "@bounded-mcp/contract";
import fc from "fast-check";
import { documentKey, LOOKALIKE_STRINGS, leaf, objectOf, setOwn, tree } from "./documents.js";

/**
 * query_response_artifact requests for the fuzz tests: plausible ones built from what a document
 * holds (its pointers, item keys and strings), and mutations of them (wrong types, unknown keys
 * and ops, snake_case aliases, out-of-range page sizes, `__proto__` keys, long strings, deep
 * nesting, foreign or malformed ids and cursors, non-object arguments).
 */

/** What a document offers to build requests from. */
export interface DocumentFacts {
  /** RFC 6901 pointers that resolve ("" included), breadth first. */
  pointers: string[];
  /** Keys of objects found inside arrays (candidate fields and filter paths). */
  itemKeys: string[];
  /** Short substrings of strings in the document (candidate textSearch queries). */
  needles: string[];
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Collects pointers, item keys and needles of `value`, breadth first, at most `limit` of each. */
export function factsOf(value: unknown, limit = 200): DocumentFacts {
  const pointers: string[] = [];
  const itemKeys = new Set<string>();
  const needles = new Set<string>();
  const queue: { pointer: string; value: unknown; inArray: boolean }[] = [
    { pointer: "", value, inArray: false },
  ];
  for (let index = 0; index < queue.length && pointers.length < limit; index += 1) {
    const { pointer, value: current, inArray } = queue[index]!;
    pointers.push(pointer);
    if (typeof current === "string" && current.length > 0 && needles.size < 40) {
      needles.add(current.slice(0, 1 + (current.length % 5)));
    }
    if (current === null || typeof current !== "object") continue;
    if (Array.isArray(current)) {
      current.slice(0, 30).forEach((item, position) => {
        queue.push({ pointer: `${pointer}/${position}`, value: item, inArray: true });
      });
      continue;
    }
    for (const [key, item] of Object.entries(current).slice(0, 30)) {
      if (inArray && itemKeys.size < limit) itemKeys.add(key);
      queue.push({ pointer: `${pointer}/${escapePointer(key)}`, value: item, inArray: false });
    }
  }
  return { pointers, itemKeys: [...itemKeys], needles: [...needles] };
}

const JSON_PATHS = [
  "$",
  "$.*",
  "$..*",
  "$..id",
  "$.items[*].id",
  "$.items[0:5]",
  "$..[?(@.id)]",
  "$['byId'].*",
  "$[0]",
  "$..name",
  "$.deep..level",
] as const;

/** Requests that mostly make sense for the document: every kind of §3 and §9 request. */
export function plausibleRequest(facts: DocumentFacts): fc.Arbitrary<Record<string, unknown>> {
  const pointer = fc.constantFrom(...facts.pointers);
  const responsePath = fc.option(pointer, { nil: undefined, freq: 3 });
  const field = fc.oneof(
    facts.itemKeys.length > 0 ? fc.constantFrom(...facts.itemKeys) : documentKey,
    facts.itemKeys.length > 0
      ? fc.constantFrom(...facts.itemKeys.map((key) => `/${escapePointer(key)}`))
      : documentKey,
    documentKey,
  );
  const number = fc.oneof(
    fc.integer({ min: -10, max: 1_000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  const loose = fc.record(
    {
      path: field,
      op: fc.constantFrom(...FILTER_OPS),
      value: fc.oneof(leaf, fc.array(leaf, { maxLength: 3 })),
      measure: fc.constant("length"),
    },
    { requiredKeys: ["path"] },
  );
  // Mostly well-typed filters (each op with the value it takes), some loose ones.
  const filter = fc.oneof(
    fc.record(
      { path: field, op: fc.constantFrom("eq", "ne"), value: leaf },
      { requiredKeys: ["path", "value"] },
    ),
    fc.record({
      path: field,
      op: fc.constantFrom("in", "nin"),
      value: fc.array(leaf, { minLength: 1, maxLength: 4 }),
    }),
    fc.record({
      path: field,
      op: fc.constantFrom("contains", "icontains"),
      value: fc.string({ maxLength: 4 }),
    }),
    fc.record({
      path: field,
      op: fc.constantFrom("lt", "lte", "gt", "gte"),
      value: fc.oneof(number, fc.string({ maxLength: 3 })),
    }),
    fc.record(
      { path: field, op: fc.constant("exists"), value: fc.boolean() },
      { requiredKeys: ["path", "op"] },
    ),
    fc.record({
      path: field,
      op: fc.constantFrom("eq", "ne", "lt", "lte", "gt", "gte"),
      measure: fc.constant("length"),
      value: fc.nat({ max: 20 }),
    }),
    loose,
  );
  const filters = fc.array(
    fc.oneof(
      { weight: 4, arbitrary: filter },
      {
        weight: 1,
        arbitrary: fc.record({ anyOf: fc.array(filter, { minLength: 2, maxLength: 5 }) }),
      },
    ),
    { minLength: 1, maxLength: 3 },
  );
  const sort = fc.array(
    fc.record(
      {
        path: fc.oneof(field, fc.constant("count")),
        order: fc.constantFrom(...SORT_ORDERS),
        measure: fc.constant("length"),
      },
      { requiredKeys: ["path"] },
    ),
    { minLength: 1, maxLength: 3 },
  );
  const metric = fc.oneof(
    fc.constant({ op: "count" }),
    fc.record({ op: fc.constantFrom("countDistinct", "sum", "avg", "min", "max"), path: field }),
    fc.record(
      { op: fc.constantFrom(...METRIC_OPS), path: field, measure: fc.constant("length") },
      { requiredKeys: ["op"] },
    ),
  );
  const groupBy = fc.oneof(field, fc.array(field, { minLength: 1, maxLength: 3 }));
  const aggregate = fc.oneof(
    fc.record(
      { groupBy, unwind: fc.boolean(), metrics: fc.array(metric, { minLength: 1, maxLength: 4 }) },
      { requiredKeys: ["groupBy"] },
    ),
    fc.record({ metrics: fc.array(metric, { minLength: 1, maxLength: 4 }) }, { requiredKeys: [] }),
  );
  const textSearch = fc.record(
    {
      query:
        facts.needles.length > 0
          ? fc.oneof(fc.constantFrom(...facts.needles), fc.string({ minLength: 1, maxLength: 4 }))
          : fc.string({ minLength: 1, maxLength: 4 }),
      caseSensitive: fc.boolean(),
    },
    { requiredKeys: ["query"] },
  );
  const pageSize = fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined, freq: 2 });
  const fields = fc.option(fc.array(field, { minLength: 1, maxLength: 5 }), { nil: undefined });
  const optionalFilters = fc.option(filters, { nil: undefined });
  const kinds = [
    fc.record({ responsePath, pageSize }),
    fc.record({ responsePath, describe: fc.constant(true) }),
    fc.record({
      responsePath,
      objectMode: fc.constant("entries"),
      fields,
      filters: optionalFilters,
      pageSize,
    }),
    fc.record({
      responsePath,
      fields,
      filters: optionalFilters,
      sort: fc.option(sort, { nil: undefined }),
      pageSize,
    }),
    fc.record({
      responsePath,
      aggregate,
      filters: optionalFilters,
      sort: fc.option(sort, { nil: undefined }),
      pageSize,
    }),
    fc.record({ responsePath, textSearch, pageSize }),
    fc.record({
      jsonPath: fc.oneof(fc.constantFrom(...JSON_PATHS), fc.string({ maxLength: 12 })),
      pageSize,
    }),
  ];
  return fc.oneof(...kinds).map(withoutUndefined);
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return objectOf(Object.entries(value).filter(([, item]) => item !== undefined));
}

/** A long string: 10,000 to 200,000 characters. */
const longString = fc
  .tuple(
    fc.constantFrom("a", "/", "~", "é", "😀", "\\u0000"),
    fc.integer({ min: 10_000, max: 200_000 }),
  )
  .map(([unit, count]) => unit.repeat(count).slice(0, count));

/** Nested arrays 10 to 200 levels deep. */
const deepArgument = fc.integer({ min: 10, max: 200 }).map((depth) => {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
});

/** A value of any type, including the ones no argument accepts. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 2, arbitrary: tree },
  { weight: 2, arbitrary: fc.constantFrom(...LOOKALIKE_STRINGS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      0,
      -1,
      1.5,
      101,
      1e9,
      2 ** 53,
      Number.MAX_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
    ),
  },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: deepArgument },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const SNAKE_ALIASES: Readonly<Record<string, string>> = {
  artifactId: "artifact_id",
  responsePath: "response_path",
  objectMode: "object_mode",
  textSearch: "text_search",
  pageSize: "page_size",
  jsonPath: "json_path",
};

/** Ids and cursors that are not what the server issued for this request. */
export interface ForeignValues {
  /** Artifact ids of other callers, of other artifacts, or well-formed unknown ones. */
  artifactIds: string[];
  /** Cursors issued for other requests or artifacts. */
  cursors: string[];
}

function truncateOrFlip(text: string, choice: number): string {
  if (text.length === 0) return "x";
  const at = choice % text.length;
  if (choice % 3 === 0) return text.slice(0, at);
  const code = text.charCodeAt(at);
  const replaced = String.fromCharCode(code === 0x41 ? 0x42 : 0x41);
  return choice % 3 === 1
    ? `${text.slice(0, at)}${replaced}${text.slice(at + 1)}`
    : `${text}${replaced}`;
}

/** One change to a request; the result may be valid or not. */
export type Mutation = (request: Record<string, unknown>) => unknown;

/** Mutations of a request; `foreign` supplies other callers' ids and other requests' cursors. */
export function mutation(foreign: ForeignValues): fc.Arbitrary<Mutation> {
  const anyKey = fc.oneof(
    fc.constantFrom(...QUERY_REQUEST_KEYS, ...Object.values(SNAKE_ALIASES)),
    documentKey,
  );
  const nested = fc.constantFrom("filters", "textSearch", "aggregate", "sort");
  const artifactId = fc.oneof(
    foreign.artifactIds.length > 0
      ? fc.constantFrom(...foreign.artifactIds)
      : fc.constant("A".repeat(24)),
    fc.constantFrom("", "A".repeat(24), "a".repeat(23), "!".repeat(24), "x".repeat(10_000)),
    fc.string({ maxLength: 30 }),
  );
  const cursor = fc.oneof(
    foreign.cursors.length > 0 ? fc.constantFrom(...foreign.cursors) : fc.constant("AQ"),
    fc.string({ maxLength: 70 }),
    fc
      .base64String({ maxLength: 64 })
      .map((text) => text.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")),
    longString,
  );
  return fc.oneof(
    fc.tuple(anyKey, junkValue).map(
      ([key, value]): Mutation =>
        (request) => {
          setOwn(request, key, value);
          return request;
        },
    ),
    fc.nat().map(
      (choice): Mutation =>
        (request) => {
          const keys = Object.keys(request);
          if (keys.length > 0) delete request[keys[choice % keys.length]!];
          return request;
        },
    ),
    fc
      .constantFrom<unknown>(
        0,
        -1,
        101,
        1e9,
        1.5,
        "20",
        "NaN",
        null,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        [20],
        true,
      )
      .map(
        (pageSize): Mutation =>
          (request) => ({ ...request, pageSize }),
      ),
    fc.tuple(fc.option(nested, { nil: undefined }), junkValue).map(
      ([inside, value]): Mutation =>
        (request) => {
          const target = inside === undefined ? request : firstObject(request[inside]);
          setOwn(target ?? request, "__proto__", value ?? {});
          return request;
        },
    ),
    fc.string({ maxLength: 12 }).map(
      (op): Mutation =>
        (request) => {
          const filters = Array.isArray(request["filters"]) ? request["filters"] : [{ path: "id" }];
          return {
            ...request,
            filters: [{ ...(firstObject(filters) ?? {}), op }, ...filters.slice(1)],
          };
        },
    ),
    fc.string({ maxLength: 12 }).map(
      (op): Mutation =>
        (request) => ({
          ...request,
          aggregate: { metrics: [{ op, path: "id" }] },
        }),
    ),
    artifactId.map(
      (id): Mutation =>
        (request) => ({ ...request, artifactId: id }),
    ),
    fc.tuple(cursor, fc.nat()).map(
      ([value, choice]): Mutation =>
        (request) => ({
          ...request,
          cursor: choice % 4 === 0 ? truncateOrFlip(value, choice) : value,
        }),
    ),
    fc.constantFrom(...Object.keys(SNAKE_ALIASES)).map(
      (key): Mutation =>
        (request) => {
          if (!(key in request)) return request;
          const { [key]: value, ...rest } = request;
          return objectOf([...Object.entries(rest), [SNAKE_ALIASES[key]!, value]]);
        },
    ),
  );
}

/** The first element of an array when it is an object, or the value itself when it is one. */
function firstObject(value: unknown): Record<string, unknown> | undefined {
  const candidate = Array.isArray(value) ? value[0] : value;
  return typeof candidate === "object" && candidate !== null && !Array.isArray(candidate)
    ? (candidate as Record<string, unknown>)
    : undefined;
}

/** Arguments that are not an object at all (sent only where the adapter sees them as received). */
export const nonObjectArguments: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, [], "x", 42, true, ["artifactId"], "NaN"),
  fc.array(junkValue, { maxLength: 3 }),
  leaf,
);
