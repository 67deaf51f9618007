import { mayHoldInexactNumbers, parseJsonExact, stringifyExact } from "@bounded-mcp/query-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { receivedJsonOf } from "./received-json.js";
import { serializeJson } from "./serialize-json.js";

/** How big a tool result is for the model, and whether it must be bounded. */
export interface Measurement {
  /**
   * The size that decides bounding. At or under the budget it is the exact compact JSON of the
   * result (SPEC.md §1); over it, a lower bound computed without scanning the text (the
   * UTF-16 lengths of content text, binary data and structuredContent JSON: each code unit is at
   * least one UTF-8 byte), since any figure over the budget leads to the same decision.
   */
  bytes: number;
  oversized: boolean;
  /** The compact JSON of structuredContent when it was serialized on the way (reused to store it). */
  structuredJson?: string | undefined;
  /**
   * The text structuredContent arrived as, when measuring read it (see receivedJsonOf; reused to
   * store it, so its transport's slice or check runs once per bounding).
   */
  receivedJson?: string | undefined;
}

/** What measuring serialized or read on the way, for storing an oversized result without again. */
export type MeasuredTexts = Pick<Measurement, "structuredJson" | "receivedJson">;

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

function contentPayloadBytes(result: CallToolResult): number {
  let bytes = 0;
  for (const block of result.content ?? []) bytes += blockPayloadBytes(block);
  return bytes;
}

/**
 * The exact UTF-8 size of the compact JSON of `result`, serializing `structuredJson` (already the
 * compact JSON of its structuredContent) only once: the rest of the result is serialized with a
 * one-byte stand-in at structuredContent's place, whose byte is then swapped for the real size.
 */
function exactBytes(result: CallToolResult, structuredJson: string | undefined): number {
  if (structuredJson === undefined) return Buffer.byteLength(JSON.stringify(result));
  const rest = JSON.stringify({ ...result, structuredContent: 0 });
  return Buffer.byteLength(rest) - 1 + Buffer.byteLength(structuredJson);
}

/**
 * The structuredContent JSON a relay's stdio transport writes (exact-message-line.ts in the
 * relay): when the text it arrived as may hold number literals a double does not hold (SPEC.md
 * §10), those literals as written, compact (`1e-400` where the doubles' JSON has `0`); else the
 * compact JSON of the value.
 */
function wireStructuredJson(
  receivedJson: string | undefined,
  structuredJson: string | undefined,
): string | undefined {
  if (receivedJson === undefined || structuredJson === undefined) return structuredJson;
  if (!mayHoldInexactNumbers(receivedJson)) return structuredJson;
  return stringifyExact(parseJsonExact(receivedJson))?.text ?? structuredJson;
}

/**
 * Measures a tool result the way the model would receive it, serializing structuredContent at
 * most once and a huge result never in full: when the content blocks alone are over `inlineBytes`
 * the result is oversized and structuredContent is not serialized at all (the bounder stores the
 * text it arrived as, or serializes it then: a server that sends a large structuredContent and
 * its JSON as a text block costs no JSON.stringify of it here; its size then counts the text it
 * arrived as, when its transport kept it, else nothing). Otherwise the lower bound
 * (payload lengths, structuredContent as its compact JSON, kept for storing) is summed first, and
 * the exact size is computed only when that bound is within `inlineBytes`, reusing the
 * structuredContent JSON; when the text structuredContent arrived as holds literals a double does
 * not hold (which a relay writes on as received), the compact JSON with those literals is counted.
 * structuredContent of any depth is serialized (iteratively past
 * JSON.stringify's stack limit) and, when too deep for JSON.stringify, counts as oversized:
 * stored and replaced by the envelope, never sent as is.
 */
export function measureResult(result: CallToolResult, inlineBytes: number): Measurement {
  const contentBytes = contentPayloadBytes(result);
  if (contentBytes > inlineBytes) {
    // Oversized whatever structuredContent holds: counted as the text it arrived as, if any
    // (read once: the bounder stores that same text, see `receivedJson`), never serialized here.
    const receivedJson = receivedJsonOf(result.structuredContent);
    return { bytes: contentBytes + (receivedJson?.length ?? 0), oversized: true, receivedJson };
  }
  const structured =
    result.structuredContent === undefined ? undefined : serializeJson(result.structuredContent);
  const structuredJson = structured?.text;
  const receivedJson = receivedJsonOf(result.structuredContent);
  const wireJson = wireStructuredJson(receivedJson, structuredJson);
  const lowerBound = contentBytes + (wireJson === undefined ? 0 : wireJson.length);
  // Nested too deep for JSON.stringify, it could not be sent as is: bounded whatever its size.
  if (lowerBound > inlineBytes || structured?.tooDeep === true) {
    return { bytes: lowerBound, oversized: true, structuredJson, receivedJson };
  }
  const exact = exactBytes(result, wireJson);
  return { bytes: exact, oversized: exact > inlineBytes, structuredJson, receivedJson };
}
