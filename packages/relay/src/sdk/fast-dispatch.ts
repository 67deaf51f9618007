import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";

/** What the SDK Protocol makes of a received message, in the order it tests: a response first. */
export type MessageKind = "response" | "request" | "notification";

type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (
    (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, "__proto__")
  );
}

function hasOnlyKeys(value: Plain, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

function isRequestId(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/** `params` (or a result) the SDK's RequestMetaSchema accepts plainly: no `_meta`, or a simple one. */
function hasPlainMeta(value: Plain): boolean {
  const meta = value._meta;
  if (meta === undefined) return true;
  if (!isPlain(meta) || Object.hasOwn(meta, RELATED_TASK_META_KEY)) return false;
  const token = meta.progressToken;
  return token === undefined || isRequestId(token);
}

function hasPlainParams(message: Plain): boolean {
  const params = message.params;
  return params === undefined || (isPlain(params) && hasPlainMeta(params));
}

const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"] as const;
const NOTIFICATION_KEYS = ["jsonrpc", "method", "params"] as const;
const RESULT_KEYS = ["jsonrpc", "id", "result"] as const;
const ERROR_KEYS = ["jsonrpc", "id", "error"] as const;
const ERROR_FIELDS = ["code", "message", "data"] as const;

/**
 * The kind the SDK Protocol gives `message` (its isJSONRPCResultResponse, isJSONRPCErrorResponse,
 * isJSONRPCRequest and isJSONRPCNotification zod checks, in that order), decided by a check of
 * the usual shapes: plain objects, `jsonrpc: "2.0"`, a string or safe-integer id, a string
 * method, plain params and results whose `_meta` holds at most a string or integer progressToken,
 * an error with an integer code and a string message, and no other keys. `undefined` for anything
 * else (a related-task id, an unknown key, a `__proto__` key, a class instance, a wrong type):
 * then the SDK's own checks decide. Limits: a check of the message's top level and `_meta`, as
 * the SDK's schemas are (params and results are loose objects).
 */
export function classifyMessage(message: unknown): MessageKind | undefined {
  if (!isPlain(message) || message.jsonrpc !== "2.0") return undefined;
  if (message.method !== undefined) {
    if (typeof message.method !== "string" || !hasPlainParams(message)) return undefined;
    if (message.id === undefined) {
      return hasOnlyKeys(message, NOTIFICATION_KEYS) ? "notification" : undefined;
    }
    return isRequestId(message.id) && hasOnlyKeys(message, REQUEST_KEYS) ? "request" : undefined;
  }
  if (message.result !== undefined) {
    const result = message.result;
    const plain = isRequestId(message.id) && isPlain(result) && hasPlainMeta(result);
    return plain && hasOnlyKeys(message, RESULT_KEYS) ? "response" : undefined;
  }
  const error = message.error;
  if (
    isPlain(error) &&
    (message.id === undefined || isRequestId(message.id)) &&
    Number.isSafeInteger(error.code) &&
    typeof error.message === "string" &&
    hasOnlyKeys(error, ERROR_FIELDS) &&
    hasOnlyKeys(message, ERROR_KEYS)
  ) {
    return "response";
  }
  return undefined;
}

/** The Protocol's handlers of a classified message (SDK 1.32: `_onresponse`, `_onrequest`, ...). */
interface ProtocolHandlers {
  _onresponse(message: JSONRPCMessage): void;
  _onrequest(message: JSONRPCMessage, extra?: MessageExtraInfo): void;
  _onnotification(message: JSONRPCMessage): void;
  readonly transport: Transport | undefined;
}

/** The Protocol's bookkeeping of the requests it sent (SDK 1.32), read by {@link settleResult}. */
interface ResponseBookkeeping {
  _requestResolvers: Map<number, unknown>;
  _responseHandlers: Map<number, (response: JSONRPCMessage) => void>;
  _progressHandlers: Map<number, unknown>;
  _cleanupTimeout(messageId: number): void;
}

function handlersOf(protocol: object): ProtocolHandlers | undefined {
  const handlers = protocol as unknown as Partial<ProtocolHandlers>;
  return typeof handlers._onresponse === "function" &&
    typeof handlers._onrequest === "function" &&
    typeof handlers._onnotification === "function"
    ? (handlers as ProtocolHandlers)
    : undefined;
}

function bookkeepingOf(protocol: object): ResponseBookkeeping | undefined {
  const books = protocol as unknown as Partial<ResponseBookkeeping>;
  return books._requestResolvers instanceof Map &&
    books._responseHandlers instanceof Map &&
    books._progressHandlers instanceof Map &&
    typeof books._cleanupTimeout === "function"
    ? (books as ResponseBookkeeping)
    : undefined;
}

/**
 * Settles the request a checked result response answers, as the SDK's `_onresponse` does for a
 * plain result (its handler deleted, its timeout cleared, its progress handler dropped, then the
 * handler called with the response), without the two zod parses of the response `_onresponse`
 * runs. False, having done nothing, for anything `_onresponse` treats otherwise: a queued
 * request's resolver, an unknown id, a task result (its progress handler is kept).
 */
function settleResult(books: ResponseBookkeeping, message: Plain): boolean {
  const messageId = Number(message.id);
  const result = message.result as Plain;
  if (typeof result.task === "object" && result.task !== null) return false;
  if (books._requestResolvers.has(messageId)) return false;
  const handler = books._responseHandlers.get(messageId);
  if (handler === undefined) return false;
  books._responseHandlers.delete(messageId);
  books._cleanupTimeout(messageId);
  books._progressHandlers.delete(messageId);
  handler(message as unknown as JSONRPCMessage);
  return true;
}

/**
 * True when `onmessage` is an accessor somewhere on the transport's prototype chain (the SDK's
 * StreamableHTTPServerTransport forwards it to the transport it wraps): shadowing it would cut
 * that forwarding.
 */
function hasOnmessageAccessor(transport: object): boolean {
  for (let level: object | null = transport; level !== null; level = Object.getPrototypeOf(level)) {
    const descriptor = Object.getOwnPropertyDescriptor(level, "onmessage");
    if (descriptor !== undefined)
      return descriptor.get !== undefined || descriptor.set !== undefined;
  }
  return false;
}

const dispatched = new WeakSet<Transport>();

/**
 * True when {@link withFastDispatch} took over the dispatch of `transport` (so an `intercept`
 * given to it sees every message the transport hands over while its protocol is connected).
 */
export function hasFastDispatch(transport: Transport): boolean {
  return dispatched.has(transport);
}

/**
 * Makes `protocol` (an SDK Client or Server, before it connects to `transport`) dispatch the
 * usual messages of `transport` without its zod classification: the SDK's Protocol runs up to
 * four zod schema parses on every received message only to tell a response from a request or a
 * notification, two of them failing ones for every request (docs/sdk-notes.md 23). A message
 * {@link classifyMessage} is sure about goes straight to the Protocol's handler for its kind (what
 * the SDK would call); any other goes through the SDK's own wrapper. Returns `transport` itself,
 * whose `onmessage` becomes an accessor: the Protocol sets its wrapper there on connect, and
 * reads back the dispatcher. Limits: relies on the Protocol's `_onresponse`, `_onrequest` and
 * `_onnotification` (SDK 1.32); when they are missing, when the transport already had an
 * `onmessage` before connect or has it as an accessor (a wrapping transport), or when `protocol`
 * is connected to another transport, the SDK's wrapper handles every message. A checked result response of a request the Protocol sent is settled
 * here as `_onresponse` would (see settleResult; its private maps of SDK 1.32, else
 * `_onresponse` itself); the request's result schema still parses the result, and the
 * Protocol's checks of a request (the task params parse) are unchanged. `intercept`, when given,
 * sees each message first (while `protocol` is connected to `transport`) and keeps it from the
 * Protocol by returning true: the relay's call lane takes the answers to the calls it sent.
 */
export function withFastDispatch<T extends Transport>(
  transport: T,
  protocol: Client | Server,
  intercept?: (message: JSONRPCMessage) => boolean,
): T {
  const handlers = handlersOf(protocol);
  if (handlers === undefined || transport.onmessage !== undefined) return transport;
  if (hasOnmessageAccessor(transport)) return transport;
  const books = bookkeepingOf(protocol);
  let sdkHandler: Transport["onmessage"];
  const dispatch = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const connected = handlers.transport === transport;
    if (connected && intercept?.(message) === true) return;
    const kind = connected ? classifyMessage(message) : undefined;
    if (kind === "response") {
      const plain = message as unknown as Plain;
      const settled =
        plain.result !== undefined && books !== undefined && settleResult(books, plain);
      if (!settled) handlers._onresponse(message);
    } else if (kind === "request") handlers._onrequest(message, extra);
    else if (kind === "notification") handlers._onnotification(message);
    else sdkHandler?.(message, extra);
  };
  dispatched.add(transport);
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => (sdkHandler === undefined ? undefined : dispatch),
    set: (handler: Transport["onmessage"]) => {
      sdkHandler = handler;
    },
  });
  return transport;
}
