import { mayHoldInexactNumbers, parseJsonExact, stringifyExact } from "@bounded-mcp/query-core";
import { receivedJsonTextOf } from "./received-json.js";
import type { JSONRPCMessage } from "./sdk/types.js";

/**
 * The structuredContent of a result message, when it still has the text it arrived as (the
 * relay's upstream transports attach it, stdio and HTTP; whoever changes the value drops it, a
 * hooked result keeps it only while unchanged: hooked-received-json.ts) and that text
 * may hold a number literal a double does not hold: then read again from that text exactly.
 */
function exactStructuredContent(message: JSONRPCMessage): object | undefined {
  if (!("result" in message)) return undefined;
  const structured = (message.result as { structuredContent?: unknown } | null)?.structuredContent;
  const received = receivedJsonTextOf(structured);
  if (received === undefined) return undefined;
  const text = received();
  if (text === undefined || !mayHoldInexactNumbers(text)) return undefined;
  return parseJsonExact(text) as object;
}

/**
 * The JSON line (newline excluded) a relay stdio transport writes for `message`, with number
 * literals a double does not hold written as they were received (SPEC.md §10): query-core
 * ExactNumbers (a tool call's arguments read exactly by withExactQueryArguments) as their
 * literals, and a passed-through result's structuredContent as the upstream wrote its numbers.
 * Any other message is JSON.stringify's text; the result's other members are unchanged. Throws
 * what JSON.stringify throws.
 */
export function messageLine(message: JSONRPCMessage): string {
  const structured = exactStructuredContent(message);
  if (structured !== undefined) {
    const result = (message as { result: Record<string, unknown> }).result;
    const exact = { ...message, result: { ...result, structuredContent: structured } };
    return stringifyExact(exact)?.text ?? "null";
  }
  return stringifyExact(message)?.text ?? "null";
}
