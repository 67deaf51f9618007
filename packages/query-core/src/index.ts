// The public surface of @bounded-mcp/query-core: the query engine, pointers, cursors, previews.
// Only what the agreed cross-package API and the README document; public-surface.test.ts pins it.

export {
  type CursorClaims,
  type CursorDecodeResult,
  type CursorExpectation,
  decodeCursor,
  encodeCursor,
} from "./cursor/cursor-codec.js";
export {
  createKeyRing,
  type KeyRing,
  type KeyRingEntry,
  KeyRingError,
  parseKeyRing,
} from "./cursor/key-ring.js";
export { mayHoldInexactNumbersInBytes } from "./exact/candidate-bytes.js";
export {
  INEXACT_CANDIDATE_SOURCE,
  isInexactLiteral,
  mayHoldInexactNumbers,
} from "./exact/detect.js";
export { type ExactNumber, exactLiteral, isExactNumber } from "./exact/exact-number.js";
export { parseJsonExact, parseJsonExactScanned } from "./exact/parse-exact.js";
export {
  type ExactText,
  findInexactNumbers,
  type InexactNumbers,
  stringifyExact,
} from "./exact/stringify-exact.js";
export { runPartialQuery } from "./partial/run-partial-query.js";
export {
  formatPointer,
  type PointerMiss,
  type PointerResolution,
  parsePointer,
  resolvePointer,
} from "./pointer/pointer.js";
export { analyzeDocument, type DocumentAnalysis } from "./preview/analyze-document.js";
export {
  type BoundedEnvelopeInput,
  createBoundedEnvelope,
  envelopeBudget,
} from "./preview/bounded-envelope.js";
export { compactPreview, SAMPLE_LADDER } from "./preview/compact-preview.js";
export {
  cutText,
  DEDUPLICATED_KEY,
  OMITTED_ITEMS_KEY,
  OMITTED_KEYS_KEY,
  PREVIEW_MARKER_KEYS,
} from "./preview/preview-markers.js";
export { TEXT_RESPONSE_ROOT, textToDocument } from "./preview/text-document.js";
export { pageText } from "./query/page-result.js";
export type { QueryContext } from "./query/query-context.js";
export {
  type QueryOutcome,
  type QueryScheduleOptions,
  runQuery,
  runQueryAsync,
} from "./query/run-query.js";
export { computeViewHash } from "./query/view-hash.js";
export { DEFAULT_SLICE_MS } from "./schedule/work.js";
export {
  createViewCache,
  DEFAULT_VIEW_CACHE_BYTES,
  type ViewCache,
  type ViewCacheOptions,
} from "./views/view-cache.js";
