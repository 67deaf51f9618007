import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../error-message.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import {
  type CallContext,
  type CallInfo,
  createCallContext,
  infoFromExtra,
  runInCallContext,
  settleCallResult,
} from "./call-context.js";

/**
 * Runs on every tools/call result after the handler's override was applied, before the result
 * is sent: the point where adapter-core plugs in bounding and outputSchema enforcement. May be
 * async. Should not throw; if it does, the caller gets a JSON-RPC internal error (-32603).
 */
export type CallResultHook = (
  request: CallToolRequest,
  result: CallToolResult,
  info: CallInfo,
) => CallToolResult | Promise<CallToolResult>;

/** A low-level Server's tools/call handler, as passed to `setRequestHandler(CallToolRequestSchema, ...)`. */
export type CallToolHandler = (
  request: CallToolRequest,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
) => CallToolResult | Promise<CallToolResult>;

/** Options of createCallInterceptor. */
export interface CallInterceptorOptions {
  /** Default: the result unchanged. */
  onResult?: CallResultHook;
  /** Receives errors thrown by onResult. Default: silent. */
  logger?: Logger;
}

/**
 * Makes the result SDK (getRawCallToolRequest / setRawCallToolResult) and an onResult hook work
 * for one server, in one of two ways; use one per server, not both (the hook would run twice).
 */
export interface CallInterceptor {
  /** For a low-level `Server`: wraps its tools/call handler. */
  wrapHandler(handler: CallToolHandler): CallToolHandler;
  /**
   * For an `McpServer` (whose tools/call handler is not reachable, docs/sdk-notes.md 2): a decorator
   * of the server-side transport, passed to `connect()` instead of it. Every other property
   * and method (sessionId, handleRequest of a streamable HTTP transport) is the transport's own.
   */
  wrapTransport<T extends Transport>(transport: T): T;
}

const IDENTITY_HOOK: CallResultHook = (_request, result) => result;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A tools/call request that answers with a CallToolResult (not a task-augmented one). */
function asCallToolRequest(message: JSONRPCMessage): (CallToolRequest & { id: RequestId }) | null {
  const candidate = message as JsonObject;
  if (candidate["method"] !== "tools/call" || !("id" in candidate)) return null;
  const params = candidate["params"];
  if (!isObject(params) || typeof params["name"] !== "string" || "task" in params) return null;
  return message as unknown as CallToolRequest & { id: RequestId };
}

function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  const candidate = message as JsonObject;
  if (candidate["method"] !== "notifications/cancelled") return undefined;
  const params = candidate["params"];
  const id = isObject(params) ? params["requestId"] : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * Creates the interceptor of one server: per-call request access and result override (the
 * result SDK), and the hook the bounding engine runs in. The transport decorator records each
 * incoming tools/call by JSON-RPC id, runs the server's handling of it inside an
 * AsyncLocalStorage context (so concurrent calls never see each other's request or override),
 * and rewrites the matching outgoing response. Calls that get a JSON-RPC error, are cancelled,
 * or ask for a task are passed through untouched.
 */
export function createCallInterceptor(options: CallInterceptorOptions = {}): CallInterceptor {
  const onResult = options.onResult ?? IDENTITY_HOOK;
  const logger = options.logger ?? SILENT_LOGGER;

  const finish = (context: CallContext, result: CallToolResult): Promise<CallToolResult> =>
    Promise.resolve(onResult(context.request, settleCallResult(context, result), context.info));

  return {
    wrapHandler(handler) {
      return (request, extra) => {
        const context = createCallContext(request, infoFromExtra(extra));
        return runInCallContext(context, async () => {
          try {
            return await finish(context, await handler(request, extra));
          } finally {
            context.settled = true;
          }
        });
      };
    },
    wrapTransport<T extends Transport>(transport: T): T {
      const pending = new Map<RequestId, CallContext>();
      let serverOnMessage: Transport["onmessage"];

      const receive = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
        const handle = serverOnMessage;
        if (handle === undefined) return;
        const cancelled = cancelledRequestId(message);
        if (cancelled !== undefined) {
          const context = pending.get(cancelled);
          if (context !== undefined) context.settled = true;
          pending.delete(cancelled);
        }
        const request = asCallToolRequest(message);
        if (request === null) {
          handle(message, extra);
          return;
        }
        const {
          id,
          jsonrpc: _version,
          ...call
        } = request as CallToolRequest & {
          id: RequestId;
          jsonrpc?: string;
        };
        const context = createCallContext(
          call,
          infoFromExtra({ ...extra, sessionId: transport.sessionId }),
        );
        pending.set(id, context);
        runInCallContext(context, () => handle(message, extra));
      };

      const respond = async (message: JSONRPCMessage): Promise<JSONRPCMessage> => {
        const response = message as JsonObject;
        const id = response["id"] as RequestId | undefined;
        if ("method" in response || id === undefined) return message;
        const context = pending.get(id);
        if (context === undefined) return message;
        pending.delete(id);
        if (!isObject(response["result"])) {
          context.settled = true;
          return message;
        }
        try {
          const result = await finish(context, response["result"] as CallToolResult);
          return { ...message, result } as JSONRPCMessage;
        } catch (error) {
          const text = errorMessage(error);
          logger.error("bounded-mcp: the tools/call result hook failed", {
            tool: context.request.params.name,
            error: text,
          });
          return {
            jsonrpc: "2.0",
            id,
            error: { code: ErrorCode.InternalError, message: `bounded-mcp: ${text}` },
          };
        }
      };

      const send: Transport["send"] = async (message, sendOptions) =>
        transport.send(await respond(message), sendOptions);

      transport.onmessage = receive as Transport["onmessage"];
      return new Proxy(transport, {
        get(target, property) {
          if (property === "send") return send;
          if (property === "onmessage") return serverOnMessage;
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" && !String(property).startsWith("on")
            ? value.bind(target)
            : value;
        },
        set(target, property, value) {
          if (property === "onmessage") {
            serverOnMessage = value as Transport["onmessage"];
            return true;
          }
          if (property === "onclose" && typeof value === "function") {
            return Reflect.set(target, property, () => {
              pending.clear();
              (value as () => void)();
            });
          }
          return Reflect.set(target, property, value, target);
        },
      });
    },
  };
}

/** The result SDK alone for a low-level Server's tools/call handler (no result hook). */
export function withResultSdk(handler: CallToolHandler): CallToolHandler {
  return createCallInterceptor().wrapHandler(handler);
}

/** The result SDK alone for an McpServer: pass the returned transport to `connect()`. */
export function createResultSdkTransport<T extends Transport>(transport: T): T {
  return createCallInterceptor().wrapTransport(transport);
}
