// The public surface of @bounded-mcp/query-core: the query engine, pointers, cursors, previews.

export {
  CURSOR_MAC_BYTES,
  CURSOR_VERSION,
  type CursorClaims,
  type CursorDecodeResult,
  type CursorExpectation,
  decodeCursor,
  encodeCursor,
} from "./cursor/cursor-codec.js";
export {
  createKeyRing,
  KEY_ID_PATTERN,
  type KeyRing,
  type KeyRingEntry,
  KeyRingError,
  MIN_SECRET_BYTES,
  parseKeyRing,
} from "./cursor/key-ring.js";
export {
  escapePointerToken,
  formatPointer,
  type PointerMiss,
  type PointerResolution,
  parsePointer,
  resolvePointer,
} from "./pointer/pointer.js";
export {
  analyzeDocument,
  type DocumentAnalysis,
  MIN_COLLECTION_SIZE,
} from "./preview/analyze-document.js";
export { type BoundedEnvelopeInput, createBoundedEnvelope } from "./preview/bounded-envelope.js";
export {
  type CompactionLimits,
  compactPreview,
  compactWithLimits,
  PREVIEW_LADDER,
} from "./preview/compact-preview.js";
export { TEXT_RESPONSE_ROOT, textToDocument } from "./preview/text-document.js";
export type { QueryContext } from "./query/query-context.js";
export { type QueryOutcome, runQuery } from "./query/run-query.js";
export { computeViewHash } from "./query/view-hash.js";
