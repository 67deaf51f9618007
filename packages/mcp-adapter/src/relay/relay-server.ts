import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type {
  RequestHandlerExtra,
  RequestOptions,
} from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  type Implementation,
  type JSONRPCRequest,
  McpError,
  type Notification,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { UPSTREAM_REQUEST_OPTIONS } from "./upstream-supervisor.js";

/** Accepts any result object as sent, so relayed results are not re-validated or stripped (SDK-NOTES.md 6). */
const PASS_THROUGH_RESULT = z.looseObject({});

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
  /** Turns an upstream tools/call result into what the downstream receives; default unchanged. */
  bound?: (result: CallToolResult, context: RelayCallContext) => Promise<CallToolResult>;
  /** Tools answered by the relay; a same-named upstream tool makes tools/list fail. */
  localTools?: readonly RelayLocalTool[];
  /** Rewrites each upstream tool definition (the outputSchema rewrite); default unchanged. */
  rewriteTool?: (tool: Tool) => Tool;
  /** Awaited before each request is forwarded (e.g. the supervisor's whenConnected). */
  whenUpstreamReady?: () => Promise<void>;
  /** Options of every forwarded request; default {@link UPSTREAM_REQUEST_OPTIONS}. */
  requestOptions?: Pick<RequestOptions, "timeout" | "resetTimeoutOnProgress" | "maxTotalTimeout">;
  /** The downstream server's name and version; default the upstream's. */
  serverInfo?: Implementation;
  logger?: Logger;
}

/**
 * Builds a downstream low-level `Server` that re-serves a connected upstream `Client`: every
 * request the downstream sends (tools, resources, templates, subscriptions, prompts, completions,
 * logging/setLevel, ping) is forwarded as received and its result returned as sent, except
 * tools/list (local tools added on the first page, definitions rewritten) and tools/call (result
 * passed through `bound`). Progress is mapped back to the caller's token, cancellation reaches the
 * upstream through the request signal, upstream notifications (logging, list_changed,
 * resources/updated) and requests (sampling, elicitation, roots) are relayed to the downstream.
 * Limits: the upstream's `tasks` capability is not advertised (task-augmented calls are not
 * relayed); requests keep the SDK's parsing of the JSON-RPC envelope only.
 */
export function createRelayServer(options: RelayServerOptions): Server {
  const { upstream } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const requestOptions = options.requestOptions ?? UPSTREAM_REQUEST_OPTIONS;
  const localTools = new Map(
    (options.localTools ?? []).map((tool) => [tool.definition.name, tool] as const),
  );
  const server = new Server(options.serverInfo ?? upstreamInfo(upstream), {
    capabilities: mirrorCapabilities(upstream.getServerCapabilities(), localTools.size > 0),
    ...optionalInstructions(upstream.getInstructions()),
  });
  // The relay answers ping and logging/setLevel by asking the upstream, like every other request.
  server.removeRequestHandler("ping");
  server.removeRequestHandler("logging/setLevel");

  async function forward(request: JSONRPCRequest, extra: DownstreamExtra) {
    await options.whenUpstreamReady?.();
    const callerToken = request.params?._meta?.progressToken;
    try {
      return await upstream.request(
        withoutEnvelope(request) as Parameters<Client["request"]>[0],
        PASS_THROUGH_RESULT,
        {
          ...requestOptions,
          signal: extra.signal,
          ...(callerToken === undefined
            ? {}
            : {
                onprogress: (progress) =>
                  void extra
                    .sendNotification({
                      method: "notifications/progress",
                      params: { ...progress, progressToken: callerToken },
                    })
                    .catch((error: unknown) => logger.warn(`progress not relayed: ${error}`)),
              }),
        },
      );
    } catch (error) {
      throw asDownstreamError(error);
    }
  }

  async function listTools(request: JSONRPCRequest, extra: DownstreamExtra) {
    const result = (await forward(request, extra)) as { tools?: Tool[] };
    const upstreamTools = result.tools ?? [];
    const clash = upstreamTools.find((tool) => localTools.has(tool.name));
    if (clash !== undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `upstream tool "${clash.name}" has the name of a tool the relay serves itself`,
      );
    }
    const rewritten = options.rewriteTool ? upstreamTools.map(options.rewriteTool) : upstreamTools;
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

  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method === "tools/list") return listTools(request, extra);
    if (request.method === "tools/call") return callTool(request, extra);
    return forward(request, extra);
  };
  server.fallbackNotificationHandler = (notification) =>
    relayNotification(
      () => upstream.notification(withoutEnvelope(notification)),
      notification,
      logger,
    );

  upstream.fallbackNotificationHandler = (notification) =>
    relayNotification(
      () => server.notification(withoutEnvelope(notification) as ServerNotification),
      notification,
      logger,
    );
  upstream.fallbackRequestHandler = async (request, extra) => {
    try {
      return await server.request(withoutEnvelope(request) as ServerRequest, PASS_THROUGH_RESULT, {
        signal: extra.signal,
        timeout: requestOptions.timeout,
      });
    } catch (error) {
      throw asDownstreamError(error);
    }
  };
  return server;
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
      error: error instanceof Error ? error.message : String(error),
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
