import { z } from "zod";
import { FilterSchema, PathSchema } from "./filter.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { AggregateSchema, SortKeySchema } from "./query-extensions.js";

/** `textSearch`: match contexts of a query under the selection. */
export const TextSearchSchema = z.strictObject({
  query: z
    .string()
    .min(DEFAULT_LIMITS.minTextSearchQueryChars)
    .max(DEFAULT_LIMITS.maxTextSearchQueryChars),
  caseSensitive: z.boolean().optional(),
});
/** `textSearch` as the caller sent it (caseSensitive defaults to false). */
export type TextSearch = z.infer<typeof TextSearchSchema>;

type RequestShape = {
  describe?: boolean | undefined;
  objectMode?: string | undefined;
  fields?: unknown;
  filters?: unknown;
  textSearch?: unknown;
  jsonPath?: string | undefined;
  responsePath?: string | undefined;
  sort?: unknown;
  aggregate?: unknown;
};

/**
 * The argument pairs that exclude each other (§3, plus jsonPath): `[key, keys it excludes]`.
 * `describe` counts only when true; every other key counts when present.
 */
export const QUERY_REQUEST_CONFLICTS = Object.freeze([
  ["textSearch", ["describe", "fields", "filters", "objectMode", "sort", "aggregate"]],
  ["describe", ["fields", "filters", "objectMode", "sort", "aggregate"]],
  ["jsonPath", ["responsePath", "objectMode"]],
  ["aggregate", ["fields"]],
] as const);

/** Why a pair excludes each other, when the generic "send them in separate calls" misleads. */
const CONFLICT_ADVICE: Readonly<Record<string, string>> = {
  "aggregate:fields":
    "no fields with aggregate (its rows are labelled by their groupBy paths and metrics)",
};

function isSet(request: RequestShape, key: keyof RequestShape): boolean {
  return key === "describe" ? request.describe === true : request[key] !== undefined;
}

/** The first conflicting pair of a request, or null when its arguments can go together. */
function findConflict(request: RequestShape): [keyof RequestShape, keyof RequestShape] | null {
  for (const [key, excluded] of QUERY_REQUEST_CONFLICTS) {
    if (!isSet(request, key)) continue;
    const other = excluded.find((candidate) => isSet(request, candidate));
    if (other !== undefined) return [key, other];
  }
  return null;
}

/**
 * The arguments of `query_response_artifact` (§3), strict: unknown keys are rejected, and so are
 * the conflicting pairs of QUERY_REQUEST_CONFLICTS. Use `parseQueryRequest` to get the contract's
 * error (snake_case aliases with suggestedKey, the offending field, what was expected) rather than
 * a raw zod error.
 */
export const QueryRequestSchema = z
  .strictObject({
    artifactId: z.string().meta({ description: "responseMeta.artifact.id of a bounded result." }),
    responsePath: PathSchema.optional().meta({
      description:
        'RFC 6901 pointer to the part to read; omitted = the artifact\'s responseRoot, "" = the whole document.',
    }),
    describe: z.boolean().optional().meta({
      description: "true: return the shape (keys, types, lengths) instead of values. Start here.",
    }),
    objectMode: z.literal("entries").optional().meta({
      description: '"entries": read the selected object as rows {key, value}.',
    }),
    fields: z.array(PathSchema).max(DEFAULT_LIMITS.maxFields).optional().meta({
      description:
        'Projection of each item: a literal key ("id") or a pointer relative to the item ("/parameters/jsCode").',
    }),
    filters: z.array(FilterSchema).max(DEFAULT_LIMITS.maxFilters).optional().meta({
      description:
        'ANDed filters {path, op?, value?, measure?} on every selected item. op: eq (default), ne, in, nin (array value), contains, icontains (string; also string elements of arrays), lt, lte, gt, gte (number or string), exists (boolean, default true). measure "length" compares the length (items, characters, keys). {anyOf: [2 to 5 filters]} holds when any holds.',
    }),
    textSearch: TextSearchSchema.optional().meta({
      description:
        "Find text under the selection; returns match contexts with pointers. Not with describe, fields, filters or objectMode.",
    }),
    pageSize: z
      .int()
      .min(DEFAULT_LIMITS.minPageSize)
      .max(DEFAULT_LIMITS.maxPageSize)
      .optional()
      .meta({ description: "Items, entries, keys or matches per page (default 20)." }),
    cursor: z.string().optional().meta({
      description:
        "responseMeta.nextCursor of the previous page; send every other argument unchanged.",
    }),
    jsonPath: PathSchema.optional().meta({
      description:
        'JSONPath selector of names, indices, wildcards, slices and ".." (no filter [?...] or script expressions: use filters); returns rows {pointer, value}. Not with responsePath or objectMode.',
    }),
    sort: z.array(SortKeySchema).min(1).max(DEFAULT_LIMITS.maxSortKeys).optional().meta({
      description:
        'Order the (filtered) items before paging: up to 3 keys {path, order? "asc"|"desc", measure? "length"}; stable; missing and null last. With aggregate, a path equal to a row label sorts rows by it ("count").',
    }),
    aggregate: AggregateSchema.optional().meta({
      description:
        'Rows instead of items: {groupBy? path or up to 3 paths, unwind? (split arrays), metrics? up to 8 {op: count|countDistinct|sum|avg|min|max, path?, measure?}}; default metrics [{op: "count"}]. Rows are {<groupBy path>: value, count: n, "sum(/price)": s}, largest group first. Not with fields, describe or textSearch.',
    }),
  })
  .superRefine((request, context) => {
    const conflict = findConflict(request);
    if (conflict === null) return;
    const [key, other] = conflict;
    const advice = CONFLICT_ADVICE[`${key}:${other}`];
    const expected = advice ?? `${other} or ${key}, not both: send them in separate calls`;
    context.addIssue({
      code: "custom",
      path: [other],
      message: `Conflicting arguments: ${other} cannot be combined with ${key}.`,
      params: { expected, conflictsWith: key, drop: advice !== undefined },
    });
  });
/** The validated arguments of query_response_artifact, as sent (no defaults filled in). */
export type QueryRequest = z.infer<typeof QueryRequestSchema>;

/** The top-level keys of a query request, in documentation order. */
export const QUERY_REQUEST_KEYS = Object.freeze(
  Object.keys(QueryRequestSchema.shape) as (keyof QueryRequest)[],
);

/** The keys of the textSearch object, in documentation order. */
export const TEXT_SEARCH_KEYS = Object.freeze(
  Object.keys(TextSearchSchema.shape) as (keyof TextSearch)[],
);
