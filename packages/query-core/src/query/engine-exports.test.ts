import { describe, expect, it } from "vitest";
import * as core from "../index.js";

describe("@bounded-mcp/query-core public surface", () => {
  it("exports exactly the runtime names of the agreed cross-package API, nothing internal", () => {
    expect(
      Object.fromEntries(
        Object.keys(core)
          .sort()
          .map((name) => [name, typeof (core as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      DEDUPLICATED_KEY: "string",
      DEFAULT_SLICE_MS: "number",
      DEFAULT_VIEW_CACHE_BYTES: "number",
      INEXACT_CANDIDATE_SOURCE: "string",
      KeyRingError: "function",
      OMITTED_ITEMS_KEY: "string",
      OMITTED_KEYS_KEY: "string",
      PREVIEW_MARKER_KEYS: "object",
      SAMPLE_LADDER: "object",
      TEXT_RESPONSE_ROOT: "string",
      analyzeDocument: "function",
      compactPreview: "function",
      computeViewHash: "function",
      createBoundedEnvelope: "function",
      createKeyRing: "function",
      createViewCache: "function",
      cutText: "function",
      decodeCursor: "function",
      encodeCursor: "function",
      envelopeBudget: "function",
      exactLiteral: "function",
      findInexactNumbers: "function",
      formatPointer: "function",
      isExactNumber: "function",
      isInexactLiteral: "function",
      mayHoldInexactNumbers: "function",
      mayHoldInexactNumbersInBytes: "function",
      pageText: "function",
      parseJsonExact: "function",
      parseJsonExactScanned: "function",
      parseKeyRing: "function",
      parsePointer: "function",
      resolvePointer: "function",
      runPartialQuery: "function",
      runQuery: "function",
      runQueryAsync: "function",
      stringifyExact: "function",
      textToDocument: "function",
    });
  });
});
