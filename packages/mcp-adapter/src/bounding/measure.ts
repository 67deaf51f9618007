import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** How big a tool result is for the model, and whether it must be bounded. */
export interface Measurement {
  /**
   * The size that decides bounding. At or under the budget it is the exact compact JSON of the
   * result (CONTRACT-v3.md §1); over it, a lower bound computed without scanning the text (the
   * UTF-16 lengths of content text, binary data and structuredContent JSON: each code unit is at
   * least one UTF-8 byte), since any figure over the budget leads to the same decision.
   */
  bytes: number;
  oversized: boolean;
  /** The compact JSON of structuredContent when it was serialized on the way (reused to store it). */
  structuredJson?: string | undefined;
}

type ContentBlock = CallToolResult["content"][number];

function blockPayloadBytes(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "image":
    case "audio":
      return block.data.length;
    case "resource": {
      const resource = block.resource;
      return "text" in resource ? resource.text.length : resource.blob.length;
    }
    default:
      return 0;
  }
}

/**
 * Measures a tool result the way the model would receive it, without serializing a huge result
 * twice: the lower bound (payload bytes) is summed first, and the exact compact JSON is computed
 * only when that bound is within `inlineBytes`.
 */
export function measureResult(result: CallToolResult, inlineBytes: number): Measurement {
  const structuredJson =
    result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  let lowerBound = structuredJson === undefined ? 0 : structuredJson.length;
  for (const block of result.content ?? []) lowerBound += blockPayloadBytes(block);
  if (lowerBound > inlineBytes) return { bytes: lowerBound, oversized: true, structuredJson };
  const exact = Buffer.byteLength(JSON.stringify(result));
  return { bytes: exact, oversized: exact > inlineBytes, structuredJson };
}
