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
/** Why a page or preview is not the whole selection. */
export type TruncationReason = z.infer<typeof TruncationReasonSchema>;

/** What one page counts: array items, object entries, describe keys or textSearch matches (§4.7). */
export const PAGE_UNITS = ["items", "entries", "keys", "matches"] as const;
/** One page unit, reported in responseMeta.pageUnit. */
export const PageUnitSchema = z.enum(PAGE_UNITS);
/** What one page of a result counts. */
export type PageUnit = z.infer<typeof PageUnitSchema>;

/** One applied filter with honest counts: items it resolved on, items that matched. */
export const FilterAppliedSchema = z.strictObject({
  path: z.string(),
  op: FilterOpSchema,
  resolvedOn: z.int().nonnegative(),
  matched: z.int().nonnegative(),
});
/** One entry of responseMeta.filtersApplied. */
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
/** responseMeta of a successful query result. */
export type ResponseMeta = z.infer<typeof ResponseMetaSchema>;

/**
 * A successful result of query_response_artifact: a page (`response`) or, for describe, a shape
 * (`shape`); exactly one of the two (§5).
 */
export const QueryResultSchema = z
  .strictObject({
    artifactId: z.string(),
    responsePath: z.string(),
    response: z.unknown().optional(),
    shape: z.unknown().optional(),
    responseMeta: ResponseMetaSchema,
  })
  .refine((result) => (result.response === undefined) !== (result.shape === undefined), {
    message: "A query result holds either response (a page) or shape (describe), exactly one.",
    path: ["shape"],
  });
/** A successful result of query_response_artifact (structuredContent). */
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
/** responseMeta of an error result: it claims no page. */
export type ErrorResponseMeta = z.infer<typeof ErrorResponseMetaSchema>;

/** An error result of query_response_artifact (§5): `response.error` with a §6 code. */
export const QueryErrorResultSchema = z.strictObject({
  artifactId: z.string().nullable(),
  responsePath: z.string().nullable(),
  response: z.strictObject({ error: ErrorObjectSchema }),
  responseMeta: ErrorResponseMetaSchema,
});
/** An error result of query_response_artifact; build it with createErrorResult. */
export type QueryErrorResult = z.infer<typeof QueryErrorResultSchema>;

/** Whatever the query tool returns in structuredContent: a result or an error result. */
export const QueryToolOutputSchema = z.union([QueryResultSchema, QueryErrorResultSchema]);
/** Any structuredContent of the query tool: a result or an error result. */
export type QueryToolOutput = z.infer<typeof QueryToolOutputSchema>;
