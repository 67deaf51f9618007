import { describe, expect, it } from "vitest";
import {
  CONTRACT_VERSION,
  CURSOR_ERROR_REASONS,
  DEFAULT_LIMITS,
  ERROR_CODE_LIST,
  ERROR_CODES,
  HANDLE_ERROR_REASONS,
  isErrorCode,
  QUERY_TOOL_NAME,
} from "../src/index.js";

describe("ERROR_CODES", () => {
  it("lists the codes of SPEC.md §6, in table order", () => {
    expect(ERROR_CODE_LIST).toEqual([
      "INVALID_RESPONSE_CONTROLS",
      "INVALID_RESPONSE_PATH",
      "INVALID_FIELD_PATH",
      "AMBIGUOUS_COLLECTION",
      "OBJECT_MODE_REQUIRED",
      "FILTER_PATH_UNRESOLVED",
      "INVALID_RESPONSE_CURSOR",
      "INVALID_ARTIFACT_HANDLE",
      "ARTIFACT_STORE_UNAVAILABLE",
      "ARTIFACT_TOO_LARGE",
    ]);
  });

  it("has one doc line per code: a single sentence-like line ending with a period", () => {
    for (const code of ERROR_CODE_LIST) {
      const line = ERROR_CODES[code];
      expect({ code, line }).toEqual({
        code,
        line: expect.stringMatching(/^[A-Za-z'"].{40,300}\.$/),
      });
      expect(line).not.toContain("\n");
    }
  });

  it("names the §6 details of each code in its doc line", () => {
    const detailKeys: Record<string, string[]> = {
      INVALID_RESPONSE_CONTROLS: ["field", "expected", "suggestedKey"],
      INVALID_RESPONSE_PATH: [
        "resolvedPrefix",
        "failedAt",
        "typeAtFailure",
        "availableChildren",
        "suggestedPath",
      ],
      INVALID_FIELD_PATH: ["field", "suggestedField"],
      AMBIGUOUS_COLLECTION: ["candidates"],
      OBJECT_MODE_REQUIRED: ["suggestedRequest"],
      FILTER_PATH_UNRESOLVED: ["path", "item keys"],
      INVALID_RESPONSE_CURSOR: ["reason"],
      INVALID_ARTIFACT_HANDLE: ["reason"],
      ARTIFACT_STORE_UNAVAILABLE: ["retryable"],
      ARTIFACT_TOO_LARGE: ["byteLength", "limit"],
    };
    const missing = ERROR_CODE_LIST.flatMap((code) =>
      (detailKeys[code] ?? ["<no entry>"])
        .filter((key) => !ERROR_CODES[code].includes(key))
        .map((key) => `${code}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it("recognises exactly the codes with isErrorCode", () => {
    expect(ERROR_CODE_LIST.every(isErrorCode)).toBe(true);
    expect([isErrorCode("NOT_FOUND"), isErrorCode("toString"), isErrorCode(1)]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("lists the cursor and handle reasons of §6", () => {
    expect({ cursor: CURSOR_ERROR_REASONS, handle: HANDLE_ERROR_REASONS }).toEqual({
      cursor: ["malformed", "unknown_key", "mismatch", "past_end"],
      handle: ["invalid_id", "unknown", "expired"],
    });
  });
});

describe("DEFAULT_LIMITS", () => {
  it("equal SPEC.md §1 and §9", () => {
    expect(DEFAULT_LIMITS).toEqual({
      inlineBytes: 32_768,
      previewBytes: 8_192,
      hardBytes: 131_072,
      artifactMaxBytes: 64 * 1024 * 1024,
      ttlMs: 24 * 60 * 60 * 1000,
      pageSize: 20,
      minPageSize: 1,
      maxPageSize: 100,
      maxFields: 50,
      maxFilters: 10,
      maxPathChars: 500,
      minTextSearchQueryChars: 1,
      maxTextSearchQueryChars: 500,
      textSearchMatchesPerPage: 20,
      textSearchContextChars: 240,
      describeSampleItems: 20,
      maxPrimaryPaths: 6,
      maxErrorMessageChars: 2_048,
      maxErrorEnvelopeBytes: 4_096,
      maxEchoChars: 120,
      maxDescriptorBytes: 8_192,
      maxCursorChars: 64,
      maxAvailableChildren: 30,
      maxSortKeys: 3,
      maxGroupBy: 3,
      maxMetrics: 8,
      minAnyOf: 2,
      maxAnyOf: 5,
      queryWorkMs: 250,
    });
  });

  it("are frozen, so no embedding changes them for everyone", () => {
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
    expect(Object.isFrozen(ERROR_CODES)).toBe(true);
  });

  it("go with contract version 3 and the one query tool", () => {
    expect({ CONTRACT_VERSION, QUERY_TOOL_NAME }).toEqual({
      CONTRACT_VERSION: 3,
      QUERY_TOOL_NAME: "query_response_artifact",
    });
  });
});
