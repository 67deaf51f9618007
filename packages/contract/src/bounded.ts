import { z } from "zod";
import { ArtifactRefSchema } from "./artifact.js";
import { ErrorObjectSchema } from "./error-object.js";
import { CONTRACT_VERSION } from "./limits.js";
import { InexactNumbersSchema } from "./query-result.js";

/** responseMeta of a bounded error: nothing was stored, so there is no artifact. */
export const BoundedErrorResponseMetaSchema = z.strictObject({
  contractVersion: z.literal(CONTRACT_VERSION),
  truncated: z.literal(true),
  complete: z.literal(false),
  truncationReason: z.literal("size_limit"),
  serializedBytes: z.int().nonnegative(),
  warning: z.string().nullable().optional(),
  /** Where `data` writes literals a double does not hold (SPEC.md §10); pointers relative to data. */
  inexactNumbers: InexactNumbersSchema.optional(),
});
/** responseMeta of a bounded error (no artifact). */
export type BoundedErrorResponseMeta = z.infer<typeof BoundedErrorResponseMetaSchema>;

/** responseMeta of a bounded envelope (SPEC.md §2): the result was stored, `data` is a preview. */
export const BoundedResponseMetaSchema = BoundedErrorResponseMetaSchema.extend({
  sourceTruncated: z.boolean().optional(),
  artifact: ArtifactRefSchema,
});
/** responseMeta of a bounded envelope, with the artifact reference. */
export type BoundedResponseMeta = z.infer<typeof BoundedResponseMetaSchema>;

/**
 * What an oversized tool result becomes (SPEC.md §2): a deterministic preview in `data`, the artifact
 * reference in `responseMeta.artifact`, and guidance on querying it.
 */
export const BoundedEnvelopeSchema = z.strictObject({
  success: z.boolean(),
  data: z.unknown(),
  responseMeta: BoundedResponseMetaSchema,
  guidance: z.string(),
});
/** The bounded envelope that replaces an oversized tool result. */
export type BoundedEnvelope = z.infer<typeof BoundedEnvelopeSchema>;

/** The codes a bounding (not a query) can fail with: the result was not stored (SPEC.md §2, §6). */
export const BOUNDED_ERROR_CODES = ["ARTIFACT_TOO_LARGE", "ARTIFACT_STORE_UNAVAILABLE"] as const;
/** One of BOUNDED_ERROR_CODES. */
export type BoundedErrorCode = (typeof BOUNDED_ERROR_CODES)[number];

/**
 * A result too large to store, or one the store refused (SPEC.md §2): `isError: true`, `success: false`,
 * the preview when one could be built (else null), and the error. The payload is never inlined.
 */
export const BoundedErrorSchema = z.strictObject({
  success: z.literal(false),
  data: z.unknown(),
  responseMeta: BoundedErrorResponseMetaSchema,
  error: ErrorObjectSchema.extend({ code: z.enum(BOUNDED_ERROR_CODES) }),
  guidance: z.string().optional(),
});
/** The bounded error that replaces a result too large to store, or one the store refused. */
export type BoundedError = z.infer<typeof BoundedErrorSchema>;
