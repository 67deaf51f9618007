import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isAlreadyBounded, rememberBounded } from "../bounding/current-tool.js";
import { measureResult } from "../bounding/measure.js";
import { isMediaBlock } from "../bounding/media.js";
import { receivedJsonOf } from "../bounding/received-json.js";
import type { StatsCollector } from "../stats/stats-collector.js";

/**
 * Passes a result of `toolName` on as boundResult would pass it (the same object), decided
 * synchronously; undefined when boundResult must decide. See {@link createSmallResultPass}.
 */
export type PassSmallResult = (
  result: CallToolResult,
  toolName: string,
) => CallToolResult | undefined;

/**
 * The bounder's pass-through branch (SPEC.md §1: at or under inlineBytes, exact compact JSON),
 * without its promises, for a result answered outside any call context (the relay's
 * forwarded calls): a result boundResult already returned is passed on as is; a result with no
 * media block, whose structuredContent (if any) arrived as text of at most inlineBytes, and
 * whose measured size is at most inlineBytes is counted in the stats as boundResult counts it
 * (bytes received = bytes to the model, not bounded) and returned. Anything else gives undefined,
 * having counted nothing: the caller asks boundResult, which measures again (a result whose
 * structuredContent was built in process is never serialized here, so a large one is not
 * serialized twice). Limits: mirrors createBounder's order (already bounded, media, measure);
 * a `receivedBytes` context is not taken (boundResult decides then).
 */
export function createSmallResultPass(inlineBytes: number, stats: StatsCollector): PassSmallResult {
  return (result, toolName) => {
    if (isAlreadyBounded(result)) return result;
    if (result.content?.some(isMediaBlock)) return undefined;
    const structured = result.structuredContent;
    if (structured !== undefined) {
      const received = receivedJsonOf(structured);
      if (received === undefined || received.length > inlineBytes) return undefined;
    }
    const measurement = measureResult(result, inlineBytes);
    if (measurement.oversized || measurement.bytes > inlineBytes) return undefined;
    stats.recordCall(toolName, {
      bytesReceived: measurement.bytes,
      bytesSentToModel: measurement.bytes,
      bounded: false,
    });
    rememberBounded(result);
    return result;
  };
}
