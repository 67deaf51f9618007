import {
  type ArtifactRef,
  type BoundedEnvelope,
  CONTRACT_VERSION,
  QUERY_TOOL_NAME,
} from "@bounded-mcp/contract";
import { jsonBytes } from "../query/json-values.js";
import { compactPreview } from "./compact-preview.js";

/** What createBoundedEnvelope needs: the parsed payload, its stored artifact and the budget. */
export interface BoundedEnvelopeInput {
  /** The parsed payload (for text, the `{"lines": [...]}` document). */
  document: unknown;
  /** The stored artifact; its responseRoot, primaryPaths and sourceTruncated come from analyzeDocument. */
  artifact: ArtifactRef;
  /** The payload's own boolean `success`, else !isError. */
  success: boolean;
  /** The whole envelope's compact JSON fits in this many bytes. */
  previewBytes: number;
  /** A hook's reshaped value (e.g. an n8n workflow summary), compacted instead of the document. */
  preview?: unknown;
}

/**
 * Builds the envelope that replaces an oversized tool result (CONTRACT-v3 §2). Only the preview
 * is measured (the envelope around it is measured once with `data: null`), never the document,
 * so it stays cheap on a 50 MiB payload. Deterministic: the same input gives the same bytes, and
 * `data` holds no id, time or random value. The whole envelope's compact JSON is at most
 * previewBytes unless the artifact reference alone is larger (then `data` is null).
 */
export function createBoundedEnvelope(input: BoundedEnvelopeInput): BoundedEnvelope {
  const { artifact, previewBytes, success } = input;
  const responseMeta: BoundedEnvelope["responseMeta"] = {
    contractVersion: CONTRACT_VERSION,
    truncated: true,
    complete: false,
    truncationReason: "size_limit",
    serializedBytes: artifact.byteLength,
    sourceTruncated: artifact.sourceTruncated,
    artifact,
  };
  let guidance = fullGuidance(artifact);
  let overhead = envelopeOverhead(success, responseMeta, guidance);
  if (overhead + MIN_PREVIEW_BYTES > previewBytes) {
    guidance = SHORT_GUIDANCE;
    overhead = envelopeOverhead(success, responseMeta, guidance);
  }
  const source = input.preview === undefined ? input.document : input.preview;
  let data = compactPreview(source, previewBytes - overhead);
  if (overhead + jsonBytes(data) > previewBytes) data = null;
  return { success, data, responseMeta, guidance };
}

const MIN_PREVIEW_BYTES = 64;
const NULL_BYTES = 4;

const SHORT_GUIDANCE = `data is a reshaped preview, not the result. Query the full result with ${QUERY_TOOL_NAME}; start with {"describe": true}.`;

function envelopeOverhead(
  success: boolean,
  responseMeta: BoundedEnvelope["responseMeta"],
  guidance: string,
): number {
  return jsonBytes({ success, data: null, responseMeta, guidance }) - NULL_BYTES;
}

/** One short paragraph: what the preview is, which paths to query, and to start with describe. */
function fullGuidance(artifact: ArtifactRef): string {
  const paths = artifact.primaryPaths.map((path) => JSON.stringify(path)).join(", ");
  const target =
    artifact.primaryPaths.length === 0 ? "then page it" : `then page the collections at ${paths}`;
  const partial = artifact.sourceTruncated ? " The source itself reports that it is partial." : "";
  return (
    `data is a reshaped preview of an oversized result, not the result itself: omissions are ` +
    `marked {"_omittedItems": n}, "_omittedKeys": n and "…[N chars total]". The full result is ` +
    `stored as responseMeta.artifact.id; query it with ${QUERY_TOOL_NAME}. Start with ` +
    `{"describe": true}, ${target} with fields, filters or textSearch.${partial}`
  );
}
