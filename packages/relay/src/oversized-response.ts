import { createBoundedError } from "@bounded-mcp/contract";
import { RELAY_ERROR_CODES } from "./sdk/protocol.js";
import type { CallToolResult, JSONRPCMessage, RequestId } from "./sdk/types.js";

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
  return readId(match?.[1]);
}

/** A request starts with `method`, after at most `jsonrpc` and `id`. */
const REQUEST_HEAD = new RegExp(
  String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*${ID_VALUE}\s*,\s*)*"method"\s*:`,
);

/** What the first and last bytes of a line too large to parse tell about it. */
export interface OversizedMessage {
  /** A request (it has a `method`) or a response (`result` or `error`). */
  kind: "request" | "response";
  /** Its JSON-RPC id; undefined when none can be read (a notification, a cut line). */
  id: RequestId | undefined;
}

/**
 * Classifies a line too large to parse from its first and last bytes: a request when `method`
 * comes first (after at most `jsonrpc` and `id`), a response when `result` or `error` does, with
 * the id from the start of the line, else from its end (SDK clients write `{method, params,
 * jsonrpc, id}`). Undefined when it is neither (a member order this does not know, not JSON).
 * Limits: the id at the end is only read when it closes the message, so an `id` inside params
 * is never taken for the request's.
 */
export function classifyOversizedLine(head: Buffer, tail: Buffer): OversizedMessage | undefined {
  const headText = head.toString("utf8");
  const kind = REQUEST_HEAD.test(headText)
    ? "request"
    : RESPONSE_HEAD.test(headText)
      ? "response"
      : undefined;
  if (kind === undefined) return undefined;
  const match = HEAD_ID.exec(headText) ?? TAIL_ID.exec(tail.toString("utf8"));
  return { kind, id: readId(match?.[1]) };
}

function readId(literal: string | undefined): RequestId | undefined {
  if (literal === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(literal);
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
    message: `The result of upstream "${facts.upstream}" is ${facts.byteLength} bytes, over the relay's message cap of ${facts.limit} bytes (a bounded relay sets it to 1.3 x artifactMaxBytes, room for the JSON-RPC message around a result of artifactMaxBytes); it was dropped unread. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields), or raise artifactMaxBytes.`,
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "null", "an array", "a string", ... for messages. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A response whose `result` is not a result object (null, an array, a string, or `_meta` that is
 * not an object) replaced by one the caller can use: for a tools/call an isError CallToolResult
 * naming the problem, for any other request a JSON-RPC error (-32603). The SDK's Protocol does not
 * recognize such a response at all (it reports it to onerror), so the request would otherwise
 * wait for its timeout (10 minutes). Any other message is returned as is.
 */
export function replaceNonObjectResult(
  message: JSONRPCMessage,
  method: string | undefined,
  upstream: string,
): JSONRPCMessage {
  if (!("result" in message) || !("id" in message) || "method" in message) return message;
  const result: unknown = message.result;
  const problem = !isObject(result)
    ? `result ${kindOf(result)}`
    : result._meta !== undefined && !isObject(result._meta)
      ? `a result whose _meta is ${kindOf(result._meta)}`
      : undefined;
  if (problem === undefined) return message;
  const id = message.id as RequestId;
  const text = `upstream "${upstream}" answered ${method ?? "a request"} with ${problem}, not a result object; the call failed.`;
  if (method === "tools/call") {
    return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError: true } };
  }
  return { jsonrpc: "2.0", id, error: { code: RELAY_ERROR_CODES.internalError, message: text } };
}
