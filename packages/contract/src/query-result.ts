import { z } from "zod";
import { ArtifactRefSchema } from "./artifact.js";
import { ErrorObjectSchema } from "./error-object.js";
import { CONTRACT_VERSION, DEFAULT_LIMITS } from "./limits.js";
import { FilterOpSchema } from "./query-request.js";

/** Why a page or preview is not the whole selection; null when it is (§5). */
export const TRUNCATION_REASONS = [
  "size_limit",
  "page_limit",
  "item_size_limit",
  "scalar_size_limit",
  "match_limit",
] as const;
/** One truncation reason; when several apply, the first of scalar, item, match, size, page wins (§5). */
export const TruncationReasonSchema = z.enum(TRUNCATION_REASONS);
export type TruncationReason = z.infer<typeof TruncationReasonSchema>;

/** What one page counts: array items, object entries, describe keys or textSearch matches (§4.7). */
export const PAGE_UNITS = ["items", "entries", "keys", "matches"] as const;
/** One page unit, reported in responseMeta.pageUnit. */
export const PageUnitSchema = z.enum(PAGE_UNITS);
export type PageUnit = z.infer<typeof PageUnitSchema>;

/** One applied filter with honest counts: items it resolved on, items that matched. */
export const FilterAppliedSchema = z.strictObject({
  path: z.string(),
  op: FilterOpSchema,
  resolvedOn: z.int().nonnegative(),
  matched: z.int().nonnegative(),
});
export type FilterApplied = z.infer<typeof FilterAppliedSchema>;

const count = z.int().nonnegative();

/** responseMeta of a successful query result (§5). */
export const ResponseMetaSchema = z.strictObject({
  contractVersion: z.literal(CONTRACT_VERSION),
  truncated: z.boolean(),
  complete: z.boolean(),
  truncationReason: TruncationReasonSchema.nullable(),
  returnedCount: count,
  totalCount: count,
  remainingCount: count,
  nextCursor: z.string().max(DEFAULT_LIMITS.maxCursorChars).nullable(),
  serializedBytes: count,
  warning: z.string().nullable(),
  pageUnit: PageUnitSchema.optional(),
  sourceTruncated: z.boolean().optional(),
  filtersApplied: z.array(FilterAppliedSchema).optional(),
  fieldsResolved: z.record(z.string(), count).optional(),
  normalizedFields: z.record(z.string(), z.string()).optional(),
  inferredResponsePath: z.string().optional(),
  artifact: ArtifactRefSchema.optional(),
});
export type ResponseMeta = z.infer<typeof ResponseMetaSchema>;

/** A successful result of query_response_artifact: a page (`response`) or a shape (`shape`). */
export const QueryResultSchema = z.strictObject({
  artifactId: z.string(),
  responsePath: z.string(),
  response: z.unknown().optional(),
  shape: z.unknown().optional(),
  responseMeta: ResponseMetaSchema,
});
export type QueryResult = z.infer<typeof QueryResultSchema>;

/** responseMeta of an error result: the contract version, and nothing that claims a page. */
export const ErrorResponseMetaSchema = z.strictObject({
  contractVersion: z.literal(CONTRACT_VERSION),
  truncated: z.literal(false),
  complete: z.literal(false),
  truncationReason: z.null(),
  returnedCount: z.literal(0),
  totalCount: z.null(),
  remainingCount: z.null(),
  nextCursor: z.null(),
  serializedBytes: count,
  warning: z.string().nullable(),
});
export type ErrorResponseMeta = z.infer<typeof ErrorResponseMetaSchema>;

/** An error result of query_response_artifact (§5): `response.error` with a §6 code. */
export const QueryErrorResultSchema = z.strictObject({
  artifactId: z.string().nullable(),
  responsePath: z.string().nullable(),
  response: z.strictObject({ error: ErrorObjectSchema }),
  responseMeta: ErrorResponseMetaSchema,
});
export type QueryErrorResult = z.infer<typeof QueryErrorResultSchema>;

/** Whatever the query tool returns in structuredContent: a result or an error result. */
export const QueryToolOutputSchema = z.union([QueryResultSchema, QueryErrorResultSchema]);
export type QueryToolOutput = z.infer<typeof QueryToolOutputSchema>;
