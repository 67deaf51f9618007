import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type {
  RequestHandlerExtra,
  RequestOptions,
} from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type Implementation,
  type JSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Notification,
  ReadResourceRequestSchema,
  type RequestId,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { errorMessage } from "../error-message.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { setRawCallToolResult } from "../result-sdk/call-context.js";
import { markRelayServer, type RelayAttachment } from "../server/attach-parts.js";
import type { BoundedMcp } from "../server/create-bounded-mcp.js";
import { parseCallToolRequest } from "../server/parse-call-tool-request.js";
import type { ToolHooks } from "./relay-hooks.js";
import { UPSTREAM_REQUEST_OPTIONS } from "./upstream-supervisor.js";
import type { UpstreamSyncState } from "./upstream-sync.js";

/**
 * Accepts any result object as sent, so relayed results are not re-validated, stripped or copied
 * (SDK-NOTES.md 6): a structural check only, the downstream client validates the result anyway.
 */
const PASS_THROUGH_RESULT = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
);

type DownstreamExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the bounding callback knows about the call whose result it bounds. */
export interface RelayCallContext {
  toolName: string;
  /** The downstream request as received (not re-serialized). */
  request: CallToolRequest;
  /** The downstream request's handler context: signal, session id, auth info. */
  extra: DownstreamExtra;
}

/** A tool the relay answers itself (the query tool), listed once, on the first tools/list page. */
export interface RelayLocalTool {
  definition: Tool;
  call(request: CallToolRequest, extra: DownstreamExtra): Promise<CallToolResult>;
}

/** Options of {@link createRelayServer}. */
export interface RelayServerOptions {
  /** A connected SDK client of the upstream; its capabilities are mirrored downstream. */
  upstream: Client;
  /**
   * The adapter to attach (recommended): its query tool, descriptor template and artifact reads,
   * its outputSchema rewrite and enforcement, and bounding inside the per-call result SDK. When
   * given, `bound`, `localTools` and `rewriteTool` are not used.
   */
  bounded?: BoundedMcp;
  /** Hooks per tool name, run on relayed results inside the per-call result SDK (needs `bounded`). */
  hooks?: ToolHooks;
  /** Records the downstream's log level and subscriptions, to re-send them after a restart. */
  syncState?: UpstreamSyncState;
  /** Low-level: turns an upstream tools/call result into what the downstream receives; default unchanged. */
  bound?: (result: CallToolResult, context: RelayCallContext) => Promise<CallToolResult>;
  /** Low-level: tools answered by the relay; a same-named upstream tool makes tools/list fail. */
  localTools?: readonly RelayLocalTool[];
  /** Low-level: rewrites each upstream tool definition (the outputSchema rewrite); default unchanged. */
  rewriteTool?: (tool: Tool) => Tool;
  /**
   * The upstream serves many downstream servers (stateless HTTP): its notifications and requests
   * are not routed to this server (progress still is, per request).
   */
  sharedUpstream?: boolean;
  /**
   * Awaited before each request is forwarded (e.g. the supervisor's whenConnected); returning
   * undefined (the upstream is connected) forwards the request without waiting a tick.
   */
  whenUpstreamReady?: () => Promise<void> | undefined;
  /** Options of every forwarded request; default {@link UPSTREAM_REQUEST_OPTIONS}. */
  requestOptions?: Pick<RequestOptions, "timeout" | "resetTimeoutOnProgress" | "maxTotalTimeout">;
  /** The downstream server's name and version; default the upstream's. */
  serverInfo?: Implementation;
  logger?: Logger;
}

/** Methods whose requests the SDK parses with a stripping schema when `bounded` is attached. */
const PARSED_METHODS = new Set([
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/**
 * Builds a downstream low-level `Server` that re-serves a connected upstream `Client`: every
 * request the downstream sends (tools, resources, templates, subscriptions, prompts, completions,
 * logging/setLevel, ping) is forwarded as received and its result returned as sent, except
 * tools/list (the query tool added on the first page, outputSchemas rewritten) and tools/call
 * (hooks, then bounding and outputSchema enforcement). With `bounded`, the adapter is attached:
 * artifact descriptor reads and query tool calls are answered locally. Progress is mapped back to
 * the caller's token, cancellation reaches the upstream through the request signal, upstream
 * notifications (logging, list_changed, resources/updated) and requests (sampling, elicitation,
 * roots) are relayed to the downstream. Limits: the upstream's `tasks` capability is not
 * advertised (task-augmented calls are not relayed); the `connect` of the returned server wraps
 * the transport's onmessage and send (to forward requests as received); with `bounded`, tools/call
 * is answered through the server's `fallbackRequestHandler` (the SDK's per-call re-validation of
 * request and result skipped, see markRelayServer), so do not replace that handler.
 */
export function createRelayServer(options: RelayServerOptions): Server {
  const { upstream, bounded, syncState } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const requestOptions = options.requestOptions ?? UPSTREAM_REQUEST_OPTIONS;
  const upstreamCapabilities = upstream.getServerCapabilities();
  const localTools = new Map(
    bounded === undefined
      ? (options.localTools ?? []).map((tool) => [tool.definition.name, tool] as const)
      : [],
  );
  const localToolNames = new Set(
    bounded === undefined ? localTools.keys() : [bounded.queryTool.name],
  );
  const server = new Server(options.serverInfo ?? upstreamInfo(upstream), {
    capabilities: mirrorCapabilities(upstreamCapabilities, localToolNames.size > 0),
    ...optionalInstructions(upstream.getInstructions()),
  });
  // The relay answers ping and logging/setLevel by asking the upstream, like every other request.
  server.removeRequestHandler("ping");
  server.removeRequestHandler("logging/setLevel");

  /** Requests as received, by id, for the methods the SDK parses before our handler sees them. */
  const received = new Map<RequestId, JSONRPCRequest>();
  function asReceived<T extends { method: string }>(parsed: T, extra: DownstreamExtra): T {
    const raw = received.get(extra.requestId);
    received.delete(extra.requestId);
    return (raw === undefined ? parsed : withoutEnvelope(raw)) as unknown as T;
  }

  async function forward(request: { method: string; params?: unknown }, extra: DownstreamExtra) {
    const upstreamReady = options.whenUpstreamReady?.();
    if (upstreamReady !== undefined) await upstreamReady;
    const params = request.params as { _meta?: { progressToken?: unknown } } | undefined;
    const callerToken = params?._meta?.progressToken;
    // A tools/call always asks the upstream for progress (so the timeout resets on it); the
    // downstream only gets the notifications it asked for, with its own token.
    const wantsProgress = callerToken !== undefined || request.method === "tools/call";
    try {
      const result = await upstream.request(
        withoutEnvelope(request) as Parameters<Client["request"]>[0],
        PASS_THROUGH_RESULT,
        {
          ...requestOptions,
          signal: extra.signal,
          ...(wantsProgress
            ? {
                onprogress: (progress) => {
                  if (callerToken === undefined) return;
                  void extra
                    .sendNotification({
                      method: "notifications/progress",
                      params: { ...progress, progressToken: callerToken as string | number },
                    })
                    .catch((error: unknown) => logger.warn(`progress not relayed: ${error}`));
                },
              }
            : {}),
        },
      );
      syncState?.record(request.method, request.params);
      return result;
    } catch (error) {
      throw asDownstreamError(error);
    }
  }

  async function upstreamTools(
    request: { method: string; params?: unknown },
    extra: DownstreamExtra,
  ) {
    const result = (await forward(request, extra)) as { tools?: Tool[] };
    const tools = result.tools ?? [];
    const clash = tools.find((tool) => localToolNames.has(tool.name));
    if (clash !== undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `upstream tool "${clash.name}" has the name of a tool the relay serves itself`,
      );
    }
    return { result, tools };
  }

  async function listTools(request: JSONRPCRequest, extra: DownstreamExtra) {
    const { result, tools } = await upstreamTools(request, extra);
    const rewritten = options.rewriteTool ? tools.map(options.rewriteTool) : tools;
    const firstPage = request.params?.cursor === undefined;
    const local = firstPage ? [...localTools.values()].map((tool) => tool.definition) : [];
    return { ...result, tools: [...rewritten, ...local] };
  }

  async function callTool(request: JSONRPCRequest, extra: DownstreamExtra) {
    const name = request.params?.name;
    if (typeof name !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "tools/call needs params.name, a string");
    }
    const callRequest = withoutEnvelope(request) as CallToolRequest;
    const local = localTools.get(name);
    if (local !== undefined) return local.call(callRequest, extra);
    const result = (await forward(request, extra)) as CallToolResult;
    if (options.bound === undefined) return result;
    return options.bound(result, { toolName: name, request: callRequest, extra });
  }

  /** A relayed call inside the attached adapter's per-call result SDK: forward, then the hook. */
  async function callHookedTool(parsed: CallToolRequest, extra: DownstreamExtra) {
    const request = asReceived(parsed, extra);
    const result = (await forward(request, extra)) as CallToolResult;
    const hook = options.hooks?.[request.params.name];
    if (hook === undefined || request.params.task !== undefined) return result;
    try {
      await hook({ toolName: request.params.name, request, result, extra });
    } catch (error) {
      setRawCallToolResult({});
      logger.error(`the hook of tool "${request.params.name}" failed; result relayed unchanged`, {
        tool: request.params.name,
        error: errorMessage(error),
      });
    }
    return result;
  }

  let attachment: RelayAttachment | undefined;
  if (bounded !== undefined) {
    attachment = markRelayServer(server);
    bounded.attach(server);
    const relayed = (parsed: { method: string }, extra: DownstreamExtra) =>
      forward(asReceived(parsed, extra), extra);
    server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
      const { result, tools } = await upstreamTools(asReceived(request, extra), extra);
      return { ...result, tools };
    });
    server.setRequestHandler(CallToolRequestSchema, callHookedTool);
    if (upstreamCapabilities?.resources !== undefined) {
      server.setRequestHandler(ListResourcesRequestSchema, relayed);
      server.setRequestHandler(ListResourceTemplatesRequestSchema, relayed);
      server.setRequestHandler(ReadResourceRequestSchema, relayed);
    }
  }

  server.fallbackRequestHandler = async (request, extra) => {
    // The attached adapter's tools/call, routed here rather than registered (markRelayServer).
    const attachedCall = attachment?.callTool;
    if (attachedCall !== undefined && request.method === "tools/call") {
      return (await attachedCall(parseCallToolRequest(request), extra)) as CallToolResult;
    }
    if (bounded === undefined && request.method === "tools/list") return listTools(request, extra);
    if (bounded === undefined && request.method === "tools/call") return callTool(request, extra);
    return forward(request, extra);
  };
  server.fallbackNotificationHandler = (notification) =>
    relayNotification(
      () => upstream.notification(withoutEnvelope(notification)),
      notification,
      logger,
    );

  if (options.sharedUpstream !== true) {
    upstream.fallbackNotificationHandler = (notification) =>
      relayNotification(
        () => server.notification(withoutEnvelope(notification) as ServerNotification),
        notification,
        logger,
      );
    upstream.fallbackRequestHandler = async (request, extra) => {
      try {
        return await server.request(
          withoutEnvelope(request) as ServerRequest,
          PASS_THROUGH_RESULT,
          { signal: extra.signal, timeout: requestOptions.timeout },
        );
      } catch (error) {
        throw asDownstreamError(error);
      }
    };
  }

  if (bounded !== undefined) {
    const connect = server.connect.bind(server);
    server.connect = async (transport: Transport) => {
      rememberReceived(transport, received);
      await connect(transport);
      const handle = transport.onmessage;
      transport.onmessage = (message, extra) => {
        // Structural checks only: the SDK's Protocol classifies the message with its schemas next.
        if ("method" in message && PARSED_METHODS.has(message.method) && "id" in message) {
          received.set(message.id, message);
        } else if ("method" in message && message.method === "notifications/cancelled") {
          received.delete(message.params?.requestId as RequestId);
        }
        handle?.(message, extra);
      };
    };
  }
  return server;
}

/** Forgets a remembered request once it is answered or cancelled (bounded memory). */
function rememberReceived(transport: Transport, received: Map<RequestId, JSONRPCRequest>): void {
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    if ("id" in message && !("method" in message)) received.delete(message.id as RequestId);
    return send(message, sendOptions);
  };
}

/** `{method, params}` of a JSON-RPC request or notification, without `jsonrpc` and `id`. */
function withoutEnvelope(message: { method: string; params?: unknown }): Notification {
  return message.params === undefined
    ? { method: message.method }
    : { method: message.method, params: message.params as Notification["params"] };
}

async function relayNotification(
  send: () => Promise<void>,
  notification: Notification,
  logger: Logger,
): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.warn(`notification ${notification.method} not relayed`, {
      error: errorMessage(error),
    });
  }
}

function upstreamInfo(upstream: Client): Implementation {
  return upstream.getServerVersion() ?? { name: "bounded-mcp-relay", version: "0.0.0" };
}

function optionalInstructions(instructions: string | undefined): { instructions?: string } {
  return instructions === undefined ? {} : { instructions };
}

/** The upstream's capabilities minus tasks (not relayed), with tools when local tools exist. */
function mirrorCapabilities(
  upstream: ServerCapabilities | undefined,
  hasLocalTools: boolean,
): ServerCapabilities {
  const { tasks: _tasks, ...mirrored } = upstream ?? {};
  if (hasLocalTools && mirrored.tools === undefined) mirrored.tools = {};
  return mirrored;
}

/**
 * An upstream error as the downstream should see it: the same code, message and data. McpError
 * prefixes its message with "MCP error <code>: ", which would otherwise be added again downstream.
 */
function asDownstreamError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}
