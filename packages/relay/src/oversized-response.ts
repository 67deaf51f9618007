import { createBoundedError } from "@bounded-mcp/contract";
import type { CallToolResult, RequestId } from "./sdk/types.js";

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `"id": <id>` as the last member (optionally before `"jsonrpc"`), closing the message. */
const TAIL_ID = new RegExp(
  String.raw`"id"\s*:\s*${ID_VALUE}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`,
);
/** `"id": <id>` as the first member (optionally after `"jsonrpc"`). */
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`,
);
/** A response starts with `result` or `error`, after at most `jsonrpc` and `id`. */
const RESPONSE_HEAD = new RegExp(
  String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*${ID_VALUE}\s*,\s*)*"(?:result|error)"\s*:`,
);

/**
 * Finds the JSON-RPC `id` of a response from the first and last bytes of a line too large to
 * parse. SDK servers serialize `{result, jsonrpc, id}`, so the id is usually at the end; other
 * servers put it first. Returns undefined when the line is not recognizably a response (a request
 * or notification from the server, or a line cut without its closing brace).
 */
export function findOversizedResponseId(head: Buffer, tail: Buffer): RequestId | undefined {
  const headText = head.toString("utf8");
  if (!RESPONSE_HEAD.test(headText)) return undefined;
  const match = TAIL_ID.exec(tail.toString("utf8")) ?? HEAD_ID.exec(headText);
  if (match?.[1] === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
  } catch {
    return undefined;
  }
}

/** Facts about a message dropped for its size, for {@link createTooLargeToolResult}. */
export interface TooLargeFacts {
  /** Bytes of the dropped message. */
  byteLength: number;
  /** The byte cap it went over. */
  limit: number;
  /** The upstream that sent it, named in the message. */
  upstream: string;
}

/**
 * The bounded error (SPEC.md §2, §6 ARTIFACT_TOO_LARGE, built by the contract's
 * createBoundedError) that replaces a tools/call result the transport refused to receive:
 * `isError: true`, the envelope in structuredContent and the same compact JSON as the only text
 * block. No preview exists (the bytes were never parsed), so `data` is null.
 */
export function createTooLargeToolResult(facts: TooLargeFacts): CallToolResult {
  const envelope = createBoundedError({
    code: "ARTIFACT_TOO_LARGE",
    message: `The result of upstream "${facts.upstream}" is ${facts.byteLength} bytes, over the relay's limit of ${facts.limit} bytes; it was dropped unread. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields).`,
    details: { byteLength: facts.byteLength, limit: facts.limit },
    data: null,
    serializedBytes: facts.byteLength,
  });
  return {
    content: [{ type: "text", text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: true,
  };
}
