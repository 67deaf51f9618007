import { z } from "zod";
import { ArtifactRefSchema } from "./artifact.js";
import { ErrorObjectSchema } from "./error-object.js";
import { FilterOpSchema, MeasureSchema } from "./filter.js";
import { CONTRACT_VERSION, DEFAULT_LIMITS } from "./limits.js";
import { ExtensionNameSchema } from "./query-extensions.js";

/** Why a page or preview is not the whole selection; null when it is (§5, §9). */
export const TRUNCATION_REASONS = [
  "size_limit",
  "page_limit",
  "item_size_limit",
  "scalar_size_limit",
  "match_limit",
  "work_limit",
] as const;
/**
 * One truncation reason; when several apply, the first of scalar_size_limit, item_size_limit,
 * work_limit, match_limit, size_limit, page_limit wins (§5, §9).
 */
export const TruncationReasonSchema = z.enum(TRUNCATION_REASONS);
/** Why a page or preview is not the whole selection. */
export type TruncationReason = z.infer<typeof TruncationReasonSchema>;

/**
 * What one page counts: array items, object entries, describe keys, textSearch matches (§4.7) or
 * aggregate rows (§9).
 */
export const PAGE_UNITS = ["items", "entries", "keys", "matches", "rows"] as const;
/** One page unit, reported in responseMeta.pageUnit. */
export const PageUnitSchema = z.enum(PAGE_UNITS);
/** What one page of a result counts. */
export type PageUnit = z.infer<typeof PageUnitSchema>;

const LeafFilterAppliedSchema = z.strictObject({
  path: z.string(),
  op: FilterOpSchema,
  measure: MeasureSchema.optional(),
  resolvedOn: z.int().nonnegative(),
  matched: z.int().nonnegative(),
});

/**
 * One applied filter with honest counts: items its path resolved on, items that matched. An
 * anyOf filter reports `{anyOf: [its filters' counts], resolvedOn, matched}`, where resolvedOn
 * counts items on which any of its paths resolved and matched the items it held on.
 */
export const FilterAppliedSchema = z.union([
  LeafFilterAppliedSchema,
  z.strictObject({
    anyOf: z.array(LeafFilterAppliedSchema),
    resolvedOn: z.int().nonnegative(),
    matched: z.int().nonnegative(),
  }),
]);
/** One entry of responseMeta.filtersApplied. */
export type FilterApplied = z.infer<typeof FilterAppliedSchema>;

const count = z.int().nonnegative();

/** At most this many pointers in responseMeta.inexactNumbers (its `total` counts them all). */
export const MAX_INEXACT_POINTERS = 20;

/**
 * responseMeta.inexactNumbers (SPEC.md §10): where the answer's text writes a number literal a
 * double does not hold (`12345678901234567890`, `1e400`, `-0`), so structuredContent (the JSON
 * value of the text) differs from the text there. `pointers` are JSON pointers relative to
 * `response` (a bounded envelope: to `data`), the first MAX_INEXACT_POINTERS in document order;
 * `total` counts every such literal of the answer.
 */
export const InexactNumbersSchema = z.strictObject({
  pointers: z.array(z.string()).max(MAX_INEXACT_POINTERS),
  total: count,
});
/** responseMeta.inexactNumbers. */
export type InexactNumbers = z.infer<typeof InexactNumbersSchema>;

/**
 * responseMeta of a successful query result (§5, §9). `remainingCount` is null only when a scan
 * stopped at its work limit (`truncationReason: "work_limit"`: what remains is not known yet).
 * `extensions` lists the §9 extensions the result used; `aggregateSkipped` counts the items that
 * formed no group (a groupBy path missing, or unwind meeting an empty array).
 */
export const ResponseMetaSchema = z
  .strictObject({
    contractVersion: z.literal(CONTRACT_VERSION),
    truncated: z.boolean(),
    complete: z.boolean(),
    truncationReason: TruncationReasonSchema.nullable(),
    returnedCount: count,
    totalCount: count,
    remainingCount: count.nullable(),
    nextCursor: z.string().max(DEFAULT_LIMITS.maxCursorChars).nullable(),
    serializedBytes: count,
    warning: z.string().nullable(),
    pageUnit: PageUnitSchema.optional(),
    sourceTruncated: z.boolean().optional(),
    extensions: z.array(ExtensionNameSchema).optional(),
    filtersApplied: z.array(FilterAppliedSchema).optional(),
    aggregateSkipped: count.optional(),
    fieldsResolved: z.record(z.string(), count).optional(),
    normalizedFields: z.record(z.string(), z.string()).optional(),
    inferredResponsePath: z.string().optional(),
    inexactNumbers: InexactNumbersSchema.optional(),
    artifact: ArtifactRefSchema.optional(),
  })
  .refine((meta) => meta.remainingCount !== null || meta.truncationReason === "work_limit", {
    message: 'remainingCount is null only with truncationReason "work_limit".',
    path: ["remainingCount"],
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
