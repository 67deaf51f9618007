import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);

function onlyKeys(value: Plain, allowed: Set<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * True for a request or notification of the plain shape every SDK client sends: `jsonrpc: "2.0"`,
 * a string method, a string or safe-integer id (requests), plain-object params without `_meta`
 * or none, and no other keys (an own `__proto__` key is another key). What the SDK's
 * JSONRPCMessageSchema accepts for these as it is; anything else is left to it.
 */
function isPlainCall(message: unknown): message is JSONRPCMessage {
  if (!isPlain(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string") {
    return false;
  }
  const params = message.params;
  if (params !== undefined && (!isPlain(params) || Object.hasOwn(params, "_meta"))) return false;
  if (!("id" in message)) return onlyKeys(message, NOTIFICATION_KEYS);
  const id = message.id;
  return (typeof id === "string" || Number.isSafeInteger(id)) && onlyKeys(message, REQUEST_KEYS);
}

/**
 * The JSON-RPC messages of a POST body (one message or a batch), or null when one of them is not
 * a JSON-RPC message. Plain requests and notifications (isPlainCall) are taken as they are, so the
 * per-request zod parse of the SDK's transport is skipped on the common path and the arguments
 * keep the exact filter values the body reader put there; every other message (responses to the
 * server's requests, `_meta`, odd shapes) goes through the SDK's JSONRPCMessageSchema, as before.
 */
export function checkJsonRpcMessages(body: unknown): JSONRPCMessage[] | null {
  const items = Array.isArray(body) ? body : [body];
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    if (isPlainCall(item)) {
      messages.push(item);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return null;
    messages.push(parsed.data);
  }
  return messages;
}
