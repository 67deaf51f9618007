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
export const FilterOpSchema = z.enum(FILTER_OPS);
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
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

const PathSchema = z.string().max(DEFAULT_LIMITS.maxPathChars);

/** One filter: `{path, op?, value?}`; filters are ANDed. */
export const FilterSchema = z.strictObject({
  path: PathSchema,
  op: FilterOpSchema.optional(),
  value: JsonValueSchema.optional(),
});
export type Filter = z.infer<typeof FilterSchema>;

/** `textSearch`: match contexts of a query under the selection. */
export const TextSearchSchema = z.strictObject({
  query: z
    .string()
    .min(DEFAULT_LIMITS.minTextSearchQueryChars)
    .max(DEFAULT_LIMITS.maxTextSearchQueryChars),
  caseSensitive: z.boolean().optional(),
});
export type TextSearch = z.infer<typeof TextSearchSchema>;

/**
 * The arguments of `query_response_artifact` (§3), strict: unknown keys are rejected. Use
 * `parseQueryRequest` to get the contract's error (snake_case aliases, conflicts, filter values)
 * rather than a raw zod error.
 */
export const QueryRequestSchema = z.strictObject({
  artifactId: z.string(),
  responsePath: PathSchema.optional(),
  describe: z.boolean().optional(),
  objectMode: z.literal("entries").optional(),
  fields: z.array(PathSchema).max(DEFAULT_LIMITS.maxFields).optional(),
  filters: z.array(FilterSchema).max(DEFAULT_LIMITS.maxFilters).optional(),
  textSearch: TextSearchSchema.optional(),
  pageSize: z.int().min(DEFAULT_LIMITS.minPageSize).max(DEFAULT_LIMITS.maxPageSize).optional(),
  cursor: z.string().optional(),
  jsonPath: PathSchema.optional(),
});
export type QueryRequest = z.infer<typeof QueryRequestSchema>;

/** The top-level keys of a query request, in documentation order. */
export const QUERY_REQUEST_KEYS = Object.freeze(
  Object.keys(QueryRequestSchema.shape) as (keyof QueryRequest)[],
);
