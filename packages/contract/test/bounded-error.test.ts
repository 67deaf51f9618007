import { describe, expect, it } from "vitest";
import { BoundedErrorSchema, createBoundedError } from "../src/index.js";

describe("createBoundedError", () => {
  it("builds the bounded error of a result over artifactMaxBytes: no artifact, null data", () => {
    const result = createBoundedError({
      code: "ARTIFACT_TOO_LARGE",
      message: "The result is 70000000 bytes, over artifactMaxBytes (67108864).",
      details: { byteLength: 70_000_000, limit: 67_108_864 },
      data: null,
      serializedBytes: 70_000_000,
    });
    expect(result).toMatchInlineSnapshot(`
      {
        "data": null,
        "error": {
          "code": "ARTIFACT_TOO_LARGE",
          "details": {
            "byteLength": 70000000,
            "limit": 67108864,
          },
          "message": "The result is 70000000 bytes, over artifactMaxBytes (67108864).",
        },
        "guidance": "The result was too large to store and was not returned. Call the tool again with narrower arguments (filters, a smaller limit, one page) so its result gets smaller.",
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "serializedBytes": 70000000,
          "truncated": true,
          "truncationReason": "size_limit",
        },
        "success": false,
      }
    `);
    expect(BoundedErrorSchema.parse(result)).toEqual(result);
  });

  it("keeps the preview of a result the store refused, and says to retry", () => {
    const preview = { nodes: [{ name: "Start" }, { _omittedItems: 13 }] };
    const result = createBoundedError({
      code: "ARTIFACT_STORE_UNAVAILABLE",
      message: "m".repeat(3000),
      details: { retryable: true, store: "s".repeat(500) },
      data: preview,
      serializedBytes: 558_019,
    });
    expect({
      data: result.data,
      messageLength: result.error.message.length,
      details: result.error.details,
      guidance: result.guidance,
    }).toEqual({
      data: preview,
      messageLength: 2048,
      details: { retryable: true, store: `${"s".repeat(119)}…` },
      guidance:
        "The result could not be stored for querying and was not returned. Retry the same call; data, when present, is only a preview.",
    });
    expect(BoundedErrorSchema.safeParse(result).success).toBe(true);
  });

  it("copies details as JSON data, cutting nested strings too", () => {
    const result = createBoundedError({
      code: "ARTIFACT_STORE_UNAVAILABLE",
      message: "The store failed.",
      details: { retryable: true, cause: { message: "c".repeat(500), code: Number.NaN } },
      data: null,
      serializedBytes: 40_000,
    });
    expect(result.error.details).toEqual({
      retryable: true,
      cause: { message: `${"c".repeat(119)}…`, code: null },
    });
  });
});
