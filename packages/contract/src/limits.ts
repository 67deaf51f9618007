/**
 * Default limits of contract v3 (CONTRACT-v3.md §1). Every one is configurable by the embedding
 * code; these are the values a caller can rely on when nothing is configured.
 */
export const DEFAULT_LIMITS = Object.freeze({
  /** A result at or under this many bytes passes through unchanged; also one query result's budget. */
  inlineBytes: 32_768,
  /** The whole bounded envelope of an oversized result fits in this many bytes. */
  previewBytes: 8_192,
  /** No response of any kind is ever larger. */
  hardBytes: 131_072,
  /** Larger payloads are refused with ARTIFACT_TOO_LARGE, never inlined. */
  artifactMaxBytes: 64 * 1024 * 1024,
  /** Artifact lifetime in milliseconds; cursors die with their artifact. */
  ttlMs: 24 * 60 * 60 * 1000,
  /** Items, entries or keys per page when the caller does not say. */
  pageSize: 20,
  minPageSize: 1,
  maxPageSize: 100,
  maxFields: 50,
  maxFilters: 10,
  /** Longest responsePath, field or filter path, in characters. */
  maxPathChars: 500,
  minTextSearchQueryChars: 1,
  maxTextSearchQueryChars: 500,
  /** Matches per textSearch page. */
  textSearchMatchesPerPage: 20,
  /** Characters of context around one textSearch match. */
  textSearchContextChars: 240,
  /** describe samples this many items of an array. */
  describeSampleItems: 20,
  maxPrimaryPaths: 6,
  /** Longest error message, in characters. */
  maxErrorMessageChars: 2_048,
  /** Largest whole error envelope, in bytes. */
  maxErrorEnvelopeBytes: 4_096,
  /** Longest echo of a caller's string inside an error. */
  maxEchoChars: 120,
  /** Largest descriptor resource, in bytes. */
  maxDescriptorBytes: 8_192,
  /** Longest cursor, in characters. */
  maxCursorChars: 64,
  /** responsePath's available children listed in an INVALID_RESPONSE_PATH error. */
  maxAvailableChildren: 30,
  /** Sort keys per request (§9). */
  maxSortKeys: 3,
  /** groupBy paths of one aggregate (§9). */
  maxGroupBy: 3,
  /** Metrics of one aggregate (§9). */
  maxMetrics: 8,
  /** Filters inside one anyOf, at least and at most (§9). */
  minAnyOf: 2,
  maxAnyOf: 5,
  /**
   * Scan time one textSearch may take before it answers with work_limit and a resuming cursor
   * (§9 rule 6), in milliseconds of wall clock, parsing excluded.
   */
  queryWorkMs: 250,
});

/** The limits an embedding may configure; the same names as DEFAULT_LIMITS. */
export type Limits = { -readonly [K in keyof typeof DEFAULT_LIMITS]: number };

/** The contract version every envelope carries in responseMeta.contractVersion. */
export const CONTRACT_VERSION = 3 as const;

/** The name of the one query tool. */
export const QUERY_TOOL_NAME = "query_response_artifact" as const;
