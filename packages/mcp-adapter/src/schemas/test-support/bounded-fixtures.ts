import {
  type BoundedEnvelope,
  BoundedEnvelopeSchema,
  type BoundedError,
  createBoundedError,
} from "@bounded-mcp/contract";

/** A bounded envelope as the bounder returns it for an oversized result (validated by zod). */
export const BOUNDED_ENVELOPE: BoundedEnvelope = BoundedEnvelopeSchema.parse({
  success: true,
  data: { items: [{ id: 1 }, { _omittedItems: 4_999 }] },
  responseMeta: {
    contractVersion: 3,
    truncated: true,
    complete: false,
    truncationReason: "size_limit",
    serializedBytes: 1_048_576,
    artifact: {
      id: "A1b2C3d4E5f6G7h8I9j0K1",
      uri: "artifact://bounded-mcp/A1b2C3d4E5f6G7h8I9j0K1",
      mediaType: "application/json",
      byteLength: 1_048_576,
      sha256: "0".repeat(64),
      expiresAt: "2026-11-30T19:00:00.000Z",
      queryTool: "query_response_artifact",
      responseRoot: "",
      primaryPaths: ["/items"],
      sourceTruncated: false,
    },
  },
  guidance: "The preview is reshaped; query /items with query_response_artifact.",
});

/** A bounded error as the bounder returns it for a result over artifactMaxBytes. */
export const BOUNDED_ERROR: BoundedError = createBoundedError({
  code: "ARTIFACT_TOO_LARGE",
  message: "The result is larger than artifactMaxBytes.",
  details: { byteLength: 70_000_000, limit: 67_108_864 },
  data: null,
  serializedBytes: 70_000_000,
});
