import {
  type ArtifactRef,
  type BoundedEnvelope,
  CONTRACT_VERSION,
  QUERY_TOOL_NAME,
} from "@bounded-mcp/contract";
import { findInexactNumbers } from "../exact/stringify-exact.js";
import { isJsonObject, jsonBytes } from "../query/json-values.js";
import { compactPreview, PREVIEW_LADDER, SAMPLE_LADDER } from "./compact-preview.js";
import { writeGuidance } from "./envelope-guidance.js";
import { keysOf } from "./estimate-bytes.js";
import { isItemsMarker, OMITTED_KEYS_KEY } from "./preview-markers.js";

/** What createBoundedEnvelope needs: the parsed payload, its stored artifact and the budget. */
export interface BoundedEnvelopeInput {
  /** The parsed payload (for text, the `{"lines": [...]}` document). */
  document: unknown;
  /** The stored artifact; its responseRoot, primaryPaths and sourceTruncated come from analyzeDocument. */
  artifact: ArtifactRef;
  /** The payload's own boolean `success`, else !isError. */
  success: boolean;
  /** The ceiling of the whole envelope's compact JSON (the budget is often smaller, see envelopeBudget). */
  previewBytes: number;
  /** A hook's reshaped value (e.g. an n8n workflow summary), compacted instead of the document. */
  preview?: unknown;
  /**
   * A reshaped preview shows every key of the items of its collections, so the guidance need not
   * suggest describe. Ignored for the generic preview, which is read to find out.
   */
  itemKeysShown?: boolean;
  /**
   * The store loses its artifacts when this process exits (the memory store): the guidance then
   * says so instead of promising expiresAt. Default false.
   */
  ephemeralStore?: boolean;
}

/** The smallest envelope budget: room for the reference, the guidance and a useful sample. */
export const MIN_ENVELOPE_BYTES = 2048;
/** The share of the result's bytes an envelope may take when that is more than the minimum. */
export const ENVELOPE_SHARE = 0.05;

/**
 * The byte budget of the envelope of a `resultBytes` result: max(2 KiB, 5% of the result), never
 * over previewBytes. A result just over inlineBytes (32 KiB) so gets a 2 KiB envelope, not a
 * fifth of its own size; only results over 160 KiB may use the whole previewBytes.
 */
export function envelopeBudget(resultBytes: number, previewBytes: number): number {
  return Math.min(
    previewBytes,
    Math.max(MIN_ENVELOPE_BYTES, Math.ceil(resultBytes * ENVELOPE_SHARE)),
  );
}

/**
 * Builds the envelope that replaces an oversized tool result (contract SPEC.md §2). `data` is a
 * sample of the payload (SAMPLE_LADDER: a few items per array, their keys, short strings), or a
 * hook's reshaped preview kept as whole as fits (PREVIEW_LADDER), cut further until the whole
 * envelope fits envelopeBudget(byteLength, previewBytes); every cut is marked. The guidance is written from what that sample shows (see writeGuidance). When no sample
 * with a value fits, data holds only the payload's outline (markers) and the guidance says so and
 * points to describe. Only the preview is measured, never the document, so it stays cheap on a
 * 50 MiB payload. Deterministic: the same input gives the same bytes, and `data` holds no id, time
 * or random value. The envelope fits the budget unless the artifact reference alone does not
 * (then `data` is null and the guidance short).
 */
export function createBoundedEnvelope(input: BoundedEnvelopeInput): BoundedEnvelope {
  const { artifact, success } = input;
  const budget = envelopeBudget(artifact.byteLength, input.previewBytes);
  const responseMeta: BoundedEnvelope["responseMeta"] = {
    contractVersion: CONTRACT_VERSION,
    truncated: true,
    complete: false,
    truncationReason: "size_limit",
    serializedBytes: artifact.byteLength,
    sourceTruncated: artifact.sourceTruncated,
    artifact,
  };
  const reshaped = input.preview !== undefined;
  const source = reshaped ? input.preview : input.document;
  // A hook's preview is already reshaped to what matters: kept as whole as the budget allows.
  const ladder = reshaped ? PREVIEW_LADDER : SAMPLE_LADDER;
  const guide = (data: unknown) =>
    writeGuidance({
      artifact,
      document: input.document,
      data,
      reshaped,
      itemKeysShown: input.itemKeysShown ?? false,
      ephemeralStore: input.ephemeralStore ?? false,
      empty: data === null || !showsAnyValue(data),
    });
  const frame = jsonBytes({ success, data: null, responseMeta, guidance: "" }) - NULL_BYTES;
  // The guidance depends on the preview and the preview's room on the guidance: start from a
  // generous guess, then shrink the room by what the envelope is over, a few times at most.
  let room = budget - frame - GUIDANCE_GUESS_BYTES;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && room >= MIN_PREVIEW_BYTES; attempt++) {
    const data = compactPreview(source, room, { ladder, marked: reshaped });
    const envelope = {
      success,
      data,
      responseMeta: withInexact(responseMeta, data),
      guidance: guide(data),
    };
    const over = jsonBytes(envelope) - budget;
    if (over <= 0) return envelope;
    room -= over;
  }
  return { success, data: null, responseMeta, guidance: SHORT_GUIDANCE };
}

/**
 * responseMeta with `inexactNumbers` (pointers relative to data) when the preview writes literals
 * a double does not hold (SPEC.md §10), else responseMeta itself.
 */
function withInexact(
  responseMeta: BoundedEnvelope["responseMeta"],
  data: unknown,
): BoundedEnvelope["responseMeta"] {
  const inexact = findInexactNumbers(data);
  return inexact.total === 0 ? responseMeta : { ...responseMeta, inexactNumbers: inexact };
}

const NULL_BYTES = 4;
const MIN_PREVIEW_BYTES = 64;
const MAX_ATTEMPTS = 4;
/** About the length of a guidance naming two collections with the sentences that may follow. */
const GUIDANCE_GUESS_BYTES = 560;

const SHORT_GUIDANCE = `data is empty: the envelope had no room for a preview. Query the result with ${QUERY_TOOL_NAME}; start with {"describe": true}.`;

/**
 * Whether a preview shows at least one value of the document: a scalar (a marker's count is
 * none) or an empty container. Key names alone (`{"items": [{"_omittedItems": 300}]}`) are not.
 */
function showsAnyValue(data: unknown): boolean {
  if (data === undefined) return false;
  if (Array.isArray(data)) {
    return data.length === 0 || data.some((item) => !isItemsMarker(item) && showsAnyValue(item));
  }
  if (!isJsonObject(data)) return true;
  const keys = keysOf(data).filter((key) => key !== OMITTED_KEYS_KEY);
  if (keys.length === 0) return !Object.hasOwn(data, OMITTED_KEYS_KEY);
  return keys.some((key) => showsAnyValue(data[key]));
}
