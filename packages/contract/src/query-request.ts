import { z } from "zod";
import { DEFAULT_LIMITS } from "./limits.js";

/** Filter operators of contract v3 (§3, §4.6); `eq` when omitted. */
export const FILTER_OPS = [
  "eq",
  "ne",
  "in",
  "contains",
  "icontains",
  "lt",
  "lte",
  "gt",
  "gte",
  "exists",
] as const;
/** One filter operator; the schema rejects any other string with INVALID_RESPONSE_CONTROLS. */
export const FilterOpSchema = z.enum(FILTER_OPS);
/** One filter operator; `eq` when a filter omits it. */
export type FilterOp = z.infer<typeof FilterOpSchema>;

/** Any JSON value (what a filter compares against). */
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);
/** A JSON value as it travels on the wire (no undefined, no functions). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

const PathSchema = z.string().max(DEFAULT_LIMITS.maxPathChars);

const ORDERING_OPS: readonly FilterOp[] = ["lt", "lte", "gt", "gte"];

/** What a filter's `value` must be for its op; null when any present JSON value will do. */
function filterValueProblem(op: FilterOp, value: unknown): string | null {
  if (op === "exists") {
    return value === undefined || typeof value === "boolean"
      ? null
      : "a boolean for op exists (true: the path resolves; false: it does not; default true)";
  }
  if (op === "in") {
    return Array.isArray(value) ? null : "an array of candidate values for op in";
  }
  if (ORDERING_OPS.includes(op)) {
    return typeof value === "number" || typeof value === "string"
      ? null
      : `a number or a string for op ${op}`;
  }
  if (op === "icontains") {
    return typeof value === "string" ? null : "a string for op icontains";
  }
  return value === undefined ? `a value for op ${op}` : null;
}

/**
 * One filter: `{path, op?, value?}`; filters are ANDed. The value must fit the op: `in` an array,
 * ordering ops a number or a string, `icontains` a string, `exists` a boolean (default true), the
 * other ops any JSON value (required). A mismatch carries `params.expected` for the error details.
 */
export const FilterSchema = z
  .strictObject({
    path: PathSchema,
    op: FilterOpSchema.optional(),
    value: JsonValueSchema.optional(),
  })
  .superRefine((filter, context) => {
    const op = filter.op ?? "eq";
    const expected = filterValueProblem(op, filter.value);
    if (expected !== null) {
      context.addIssue({
        code: "custom",
        path: ["value"],
        message: `Invalid filter value: expected ${expected}.`,
        params: { expected },
      });
    }
  });
/** One filter as the caller sent it (no defaults filled in). */
export type Filter = z.infer<typeof FilterSchema>;

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
};

/**
 * The argument pairs that exclude each other (§3, plus jsonPath): `[key, keys it excludes]`.
 * `describe` counts only when true; every other key counts when present.
 */
export const QUERY_REQUEST_CONFLICTS = Object.freeze([
  ["textSearch", ["describe", "fields", "filters", "objectMode"]],
  ["describe", ["fields", "filters", "objectMode"]],
  ["jsonPath", ["responsePath", "objectMode"]],
] as const);

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
        "ANDed filters {path, op?, value?} on every selected item. op: eq (default), ne, in (array value), contains, icontains (string), lt, lte, gt, gte (number or string), exists (boolean, default true).",
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
        "JSONPath selector (no script evaluation); returns rows {pointer, value}. Not with responsePath or objectMode.",
    }),
  })
  .superRefine((request, context) => {
    const conflict = findConflict(request);
    if (conflict === null) return;
    const [key, other] = conflict;
    const expected = `${other} or ${key}, not both: send them in separate calls`;
    context.addIssue({
      code: "custom",
      path: [other],
      message: `Conflicting arguments: ${other} cannot be combined with ${key}.`,
      params: { expected, conflictsWith: key },
    });
  });
/** The validated arguments of query_response_artifact, as sent (no defaults filled in). */
export type QueryRequest = z.infer<typeof QueryRequestSchema>;

/** The top-level keys of a query request, in documentation order. */
export const QUERY_REQUEST_KEYS = Object.freeze(
  Object.keys(QueryRequestSchema.shape) as (keyof QueryRequest)[],
);

/** The keys of one filter object, in documentation order. */
export const FILTER_KEYS = Object.freeze(Object.keys(FilterSchema.shape) as (keyof Filter)[]);

/** The keys of the textSearch object, in documentation order. */
export const TEXT_SEARCH_KEYS = Object.freeze(
  Object.keys(TextSearchSchema.shape) as (keyof TextSearch)[],
);
