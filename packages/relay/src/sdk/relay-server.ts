import {
  type AdapterSession,
  type BoundedMcp,
  type Logger,
  SILENT_LOGGER,
  setRawCallToolResult,
} from "@bounded-mcp/mcp-adapter";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  type Implementation,
  type JSONRPCRequest,
  McpError,
  type Notification,
  type ReadResourceResult,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../error-message.js";
import { keepReceivedJsonWhileUnchanged } from "../hooked-received-json.js";
import type { ToolHooks } from "../relay-hooks.js";
import type { UpstreamSyncState } from "../upstream-sync.js";
import { type CallLane, createCallLane, type UpstreamPort } from "./call-lane.js";
import { PASS_THROUGH_RESULT, requestAsSent } from "./protocol.js";
import { asDownstreamError } from "./relay-errors.js";
import type { DownstreamExtra } from "./types.js";

/**
 * SDK request options for relayed upstream calls. The SDK's default timeout (60 s) kills slow
 * tools, so: `timeout` 10 minutes of silence, `resetTimeoutOnProgress` so every progress
 * notification restarts that clock, and `maxTotalTimeout` 1 hour as the hard ceiling.
 * Limit: the SDK resets the timeout only for requests sent with an `onprogress` callback (that is
 * what adds a progressToken), so the relay passes one on every tools/call.
 */
export const UPSTREAM_REQUEST_OPTIONS = Object.freeze({
  timeout: 10 * 60_000,
  resetTimeoutOnProgress: true,
  maxTotalTimeout: 60 * 60_000,
} satisfies RequestOptions);

/** Options of {@link createRelayServer}. */
export interface RelayServerOptions {
  /** A connected SDK client of the upstream; its capabilities are mirrored downstream. */
  upstream: Client;
  /** The adapter: query tool, descriptor reads, outputSchema rewrite and enforcement, bounding. */
  bounded: BoundedMcp;
  /** Hooks per tool name, run on relayed results inside the per-call result SDK. */
  hooks?: ToolHooks;
  /** Records the downstream's log level and subscriptions, to re-send them after a restart. */
  syncState?: UpstreamSyncState;
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
  /**
   * Where the call lane reaches this connection's upstream (createRelay only): without it, or
   * with `lane: false`, every tools/call goes through the relay server.
   */
  port?: UpstreamPort;
  /** False turns the call lane off (default on when a port is given). */
  lane?: boolean;
}

/** A relay server and, when it has one, its call lane (see createCallLane). */
export interface Relay {
  server: Server;
  lane: CallLane | undefined;
}

type Routed = { method: string; params?: unknown };

/**
 * Builds the downstream low-level `Server` that re-serves a connected upstream `Client` with
 * bounded results. It registers no request handler of its own: every request reaches one router
 * (the SDK's fallback handler) as received, so it is forwarded unchanged and its result returned
 * as sent (no SDK re-validation or stripping), except what the adapter session answers or
 * changes: tools/list (outputSchemas rewritten, the query tool on the first page), tools/call
 * (the query tool locally; any other tool forwarded, then its hook, bounding and outputSchema
 * enforcement), resources/templates/list (the descriptor template added) and resources/read of
 * `artifact://` URIs. Progress is mapped back to the caller's token, cancellation reaches the
 * upstream through the request signal, upstream notifications (logging, list_changed,
 * resources/updated) and requests (sampling, elicitation, roots) are relayed to the downstream.
 * Limits: the upstream's `tasks` capability is not advertised (task-augmented calls are passed
 * through unbounded); an upstream tool named like the query tool fails tools/list.
 */
export function createRelayServer(options: RelayServerOptions): Server {
  return createRelay(options).server;
}

/**
 * {@link createRelayServer}, plus the call lane when `options.port` is given: tools/call of
 * forwarded tools answered below the SDK Protocol layers by the same adapter session
 * (createCallLane). The caller hands the downstream's messages to `lane.takeDownstream` before
 * the server's transport, and tells it when the downstream closes.
 */
export function createRelay(options: RelayServerOptions): Relay {
  const { upstream, bounded, syncState } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const requestOptions = options.requestOptions ?? UPSTREAM_REQUEST_OPTIONS;
  const upstreamCapabilities = upstream.getServerCapabilities();
  const hasResources = upstreamCapabilities?.resources !== undefined;
  const server = new Server(options.serverInfo ?? upstreamInfo(upstream), {
    capabilities: mirrorCapabilities(upstreamCapabilities),
    ...optionalInstructions(upstream.getInstructions()),
  });
  // The relay answers ping and logging/setLevel by asking the upstream, like every other request.
  server.removeRequestHandler("ping");
  server.removeRequestHandler("logging/setLevel");

  async function forward(request: Routed, extra: DownstreamExtra) {
    const upstreamReady = options.whenUpstreamReady?.();
    if (upstreamReady !== undefined) await upstreamReady;
    const params = request.params as { _meta?: { progressToken?: unknown } } | undefined;
    const callerToken = params?._meta?.progressToken;
    // A tools/call always asks the upstream for progress (so the timeout resets on it); the
    // downstream only gets the notifications it asked for, with its own token.
    const wantsProgress = callerToken !== undefined || request.method === "tools/call";
    try {
      const result = await requestAsSent(upstream, withoutEnvelope(request), {
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
      });
      syncState?.record(request.method, request.params);
      return result;
    } catch (error) {
      throw asDownstreamError(error);
    }
  }

  async function upstreamTools(request: Routed, extra: DownstreamExtra) {
    const result = (await forward(request, extra)) as { tools?: Tool[] };
    const tools = result.tools ?? [];
    const clash = tools.find((tool) => tool.name === bounded.queryTool.name);
    if (clash !== undefined) {
      throw new McpError(
        ErrorCode.InternalError,
        `upstream tool "${clash.name}" has the name of a tool the relay serves itself`,
      );
    }
    return { result, tools };
  }

  /** A relayed call, inside the adapter's per-call result SDK: forward, then the tool's hook. */
  async function callUpstreamTool(
    received: Routed,
    request: CallToolRequest,
    extra: DownstreamExtra,
  ) {
    const result = (await forward(received, extra)) as CallToolResult;
    const name = request.params.name;
    const hook = options.hooks?.[name];
    if (hook === undefined || request.params.task !== undefined) return result;
    // A hook may change structuredContent in place: its wire text is kept only while it still
    // describes the value.
    keepReceivedJsonWhileUnchanged(result.structuredContent);
    try {
      await hook({
        toolName: name,
        request: withoutEnvelope(received) as CallToolRequest,
        result,
        extra,
      });
    } catch (error) {
      setRawCallToolResult({});
      logger.error(`the hook of tool "${name}" failed; result relayed unchanged`, {
        tool: name,
        error: errorMessage(error),
      });
    }
    return result;
  }

  const session: AdapterSession = bounded.openSession({
    listTools: async (extra) =>
      (await upstreamTools({ method: "tools/list", params: {} }, extra)).tools,
  });

  /** Every downstream request, as received: the adapter's answers, else the upstream's. */
  async function route(request: JSONRPCRequest, extra: DownstreamExtra): Promise<unknown> {
    const firstPage = (request.params as { cursor?: unknown } | undefined)?.cursor === undefined;
    switch (request.method) {
      case "tools/list": {
        const { result, tools } = await upstreamTools(request, extra);
        return { ...result, tools: session.advertiseTools(tools, { firstPage }) };
      }
      case "tools/call": {
        // Only a hook reads the call context (the result SDK): without one, none is created.
        const name = (request.params as { name?: unknown } | undefined)?.name;
        const hooked = typeof name === "string" && options.hooks?.[name] !== undefined;
        return session.runToolCall(
          request,
          extra,
          (parsed, callExtra) => callUpstreamTool(request, parsed, callExtra),
          { resultSdk: hooked },
        );
      }
      case "resources/list":
        return hasResources ? forward(request, extra) : { resources: [] };
      case "resources/templates/list": {
        const base = hasResources
          ? ((await forward(request, extra)) as { resourceTemplates?: unknown[] })
          : {};
        const templates = base.resourceTemplates ?? [];
        return {
          ...base,
          resourceTemplates: session.advertiseResourceTemplates(templates, { firstPage }),
        };
      }
      case "resources/read": {
        const uri = (request.params as { uri?: unknown } | undefined)?.uri;
        if (typeof uri !== "string") {
          throw new McpError(ErrorCode.InvalidParams, "resources/read needs params.uri, a string");
        }
        const next = hasResources
          ? async () => (await forward(request, extra)) as ReadResourceResult
          : undefined;
        return session.readResource(uri, extra, next);
      }
      default:
        return forward(request, extra);
    }
  }

  server.fallbackRequestHandler = (request, extra) => route(request, extra) as never;
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
  const port = options.port;
  if (port === undefined || options.lane === false || options.sharedUpstream === true) {
    return { server, lane: undefined };
  }
  const lane = createCallLane({
    server,
    upstream,
    port,
    session,
    ownsTool: (name) => name === bounded.queryTool.name || options.hooks?.[name] !== undefined,
    requestOptions,
    logger,
  });
  port.lane = lane;
  return { server, lane };
}

/** `{method, params}` of a JSON-RPC request or notification, without `jsonrpc` and `id`. */
function withoutEnvelope(message: Routed): Notification {
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

/**
 * The upstream's capabilities minus tasks (not relayed), plus tools and resources (the query
 * tool and the descriptor template are always served), keeping the upstream's flags in them.
 */
function mirrorCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const { tasks: _tasks, ...mirrored } = upstream ?? {};
  return { ...mirrored, tools: { ...mirrored.tools }, resources: { ...mirrored.resources } };
}
