import {
  type BoundedMcp,
  type Logger,
  SILENT_LOGGER,
  type StatsSnapshot,
} from "@bounded-mcp/mcp-adapter";
import { observeToolCalls, type RelayCallEvent } from "./call-observer.js";
import type { ToolHooks } from "./relay-hooks.js";
import { connectThroughPort, createUpstreamPort, type UpstreamPort } from "./sdk/call-lane.js";
import { connectRelay, type DownstreamIdentity } from "./sdk/connect-relay.js";
import { withFastDispatch } from "./sdk/fast-dispatch.js";
import { createUpstreamClient, detachFromDownstream, requestAsSent } from "./sdk/protocol.js";
import { createRelayServer, type RelayServerOptions } from "./sdk/relay-server.js";
import type { AuthInfo, Client, Implementation, Server, Transport } from "./sdk/types.js";
import {
  createUpstreamSupervisor,
  type UpstreamSupervisor,
  type UpstreamSupervisorOptions,
} from "./upstream-supervisor.js";
import { createUpstreamSyncState } from "./upstream-sync.js";
import { createUpstreamTransport, type UpstreamSpec, upstreamName } from "./upstream-transport.js";

/** Options of {@link createBoundedRelay}. */
export interface BoundedRelayOptions {
  /** The adapter: settings, store, query tool, descriptors, outputSchema policy, stats. */
  bounded: BoundedMcp;
  /** Where the upstream server is; every downstream session gets its own connection to it. */
  upstream: UpstreamSpec;
  /** Hooks per tool name, run on relayed results with the per-call result SDK. */
  hooks?: ToolHooks;
  /** Receives the child's stderr, restarts and relay warnings; silent by default. */
  logger?: Logger;
  /** The downstream server's name and version; default the upstream's. */
  serverInfo?: Implementation;
  /** Options of every forwarded request; default UPSTREAM_REQUEST_OPTIONS (10 min silence, 1 h total). */
  requestOptions?: RelayServerOptions["requestOptions"];
  /** Who the shared upstream of stateless requests is connected as; default bounded-mcp-relay. */
  statelessClient?: DownstreamIdentity;
  /** Restart policy of stdio children (backoff, attempts); defaults of createUpstreamSupervisor. */
  restart?: Pick<UpstreamSupervisorOptions, "backoff" | "maxAttempts" | "stableAfterMs" | "random">;
  /**
   * Receives every answered tools/call, described (bounded, bounded error, inline, query; bytes,
   * ms, artifact id, error code), e.g. for metrics. The relay also logs one info line per
   * bounded result, bounded error and failed query.
   */
  onToolCall?: (event: RelayCallEvent) => void;
  /**
   * False sends every tools/call through the relay's SDK Server and Client (the full path);
   * default true: tools/call of forwarded tools on a session (`connect`, not `connectStateless`)
   * take the call lane (README "The call lane"), with the same answers.
   */
  lane?: boolean;
}

/** Who a downstream connection belongs to, when its transport does not say it on each message. */
export interface RelayConnectOptions {
  /** The session id, for the caller scope (a stateful HTTP transport provides its own). */
  sessionId?: string;
  /** The authenticated principal (`clientId` is the caller scope), e.g. from a bearer token. */
  authInfo?: AuthInfo;
}

/** One downstream connection of a bounded relay, with its own upstream connection. */
export interface BoundedRelaySession {
  /**
   * Settles once the downstream initialize has connected the upstream (as that client); rejects
   * when the upstream could not be connected (the initialize got an error, the session closed).
   */
  readonly ready: Promise<{ server: Server; upstream: Client }>;
  /** Resolves when the session is over (the downstream closed or close() was called). */
  readonly closed: Promise<void>;
  /** The supervisor of this session's upstream, once connected (state, restarts). */
  readonly supervisor: UpstreamSupervisor | undefined;
  /** Closes the downstream transport and the upstream connection (ends a stdio child). */
  close(): Promise<void>;
}

/** A bounded relay: serves any number of downstream connections from one adapter. */
export interface BoundedRelay {
  /**
   * Serves one downstream transport (stdio server transport, a streamable HTTP session, an
   * in-memory pair). Starts the transport; the upstream is connected when its initialize arrives.
   */
  connect(downstream: Transport, options?: RelayConnectOptions): Promise<BoundedRelaySession>;
  /**
   * Serves one request of a stateless streamable HTTP transport (a new transport per request, as
   * the SDK requires) over ONE upstream connection shared by every stateless request, connected on
   * first use as `statelessClient`. Resolves once the transport is connected: then call
   * `transport.handleRequest(...)`. Limits: upstream notifications not tied to a request
   * (list_changed, log messages, resources/updated) are dropped and upstream requests (sampling,
   * elicitation, roots) are refused, as no downstream connection outlives a request; the log level
   * and subscriptions are shared by every caller.
   */
  connectStateless(downstream: Transport, options?: RelayConnectOptions): Promise<void>;
  /** Sessions currently open. */
  readonly sessionCount: number;
  /** The adapter's counters (calls, bounded calls, bytes, queries). */
  stats(): StatsSnapshot;
  /** Closes every session; the adapter (`bounded`) stays the caller's to dispose. */
  close(): Promise<void>;
}

/**
 * Re-serves an MCP server the caller does not control with bounded results: the one entry point
 * both apps use (ARCHITECTURE.md walks one call through it). Each downstream connection gets its
 * own upstream connection, opened after the downstream's initialize with its clientInfo and
 * capabilities, and
 * (for stdio) its own supervised child, restarted with backoff; the log level and subscriptions
 * are re-sent after a restart. Tool results pass through the tool's hook, then the adapter's
 * bounding (scoped to authInfo.clientId, else the session id, else local) and outputSchema
 * enforcement; the query tool and `artifact://` descriptor reads are answered locally; everything
 * else is relayed (see the README's "faithful except" list). An upstream tool named like the
 * query tool fails the initialize with a clear error.
 */
export function createBoundedRelay(options: BoundedRelayOptions): BoundedRelay {
  const { upstream: spec } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const bounded = observeToolCalls(options.bounded, { logger, onToolCall: options.onToolCall });
  const name = upstreamName(spec);
  const maxMessageBytes = Math.ceil(1.3 * bounded.settings.limits.artifactMaxBytes);
  const sessions = new Set<BoundedRelaySession>();

  async function connectUpstream(
    identity: DownstreamIdentity,
    syncState: ReturnType<typeof createUpstreamSyncState>,
    onSupervisor: (supervisor: UpstreamSupervisor) => void,
    port?: UpstreamPort,
  ): Promise<Client> {
    const client = createUpstreamClient(identity.clientInfo, identity.capabilities);
    const transportFor = () => createUpstreamTransport(spec, { maxMessageBytes, logger });
    const supervisor = createUpstreamSupervisor({
      ...options.restart,
      name,
      client,
      createTransport: () =>
        port === undefined
          ? withFastDispatch(transportFor(), client)
          : connectThroughPort(port, transportFor(), client),
      onReconnect: (client) => syncState.resync(client),
      logger,
    });
    onSupervisor(supervisor);
    await supervisor.start();
    try {
      await assertNoToolClash(supervisor.client, bounded.queryTool.name, name);
    } catch (error) {
      await supervisor.close();
      throw error;
    }
    return supervisor.client;
  }

  let shared: Promise<UpstreamSupervisor> | undefined;
  function sharedUpstream(): Promise<UpstreamSupervisor> {
    shared ??= (async () => {
      let supervisor: UpstreamSupervisor | undefined;
      const identity = options.statelessClient ?? {
        clientInfo: { name: "bounded-mcp-relay", version: "0.0.0" },
        capabilities: {},
      };
      const client = await connectUpstream(identity, createUpstreamSyncState(), (created) => {
        supervisor = created;
      });
      detachFromDownstream(client);
      return supervisor as UpstreamSupervisor;
    })();
    shared.catch(() => {
      shared = undefined;
    });
    return shared;
  }

  return {
    async connectStateless(downstream, connectOptions = {}) {
      const supervisor = await sharedUpstream();
      const server = createRelayServer({
        upstream: supervisor.client,
        bounded,
        sharedUpstream: true,
        ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
        ...(options.serverInfo === undefined ? {} : { serverInfo: options.serverInfo }),
        ...(options.requestOptions === undefined ? {} : { requestOptions: options.requestOptions }),
        logger,
        whenUpstreamReady: () => whenConnected(supervisor),
      });
      await server.connect(
        withFastDispatch(withCallerDefaults(downstream, connectOptions), server),
      );
    },
    async connect(downstream, connectOptions = {}) {
      const syncState = createUpstreamSyncState();
      let supervisor: UpstreamSupervisor | undefined;
      let markClosed: () => void = () => {};
      const closed = new Promise<void>((resolve) => {
        markClosed = resolve;
      });
      const onclose = downstream.onclose;
      const port =
        options.lane === false
          ? undefined
          : createUpstreamPort(() => supervisor?.state === "connected");
      const connection = await connectRelay(downstream, {
        bounded,
        syncState,
        ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
        ...(options.serverInfo === undefined ? {} : { serverInfo: options.serverInfo }),
        ...(options.requestOptions === undefined ? {} : { requestOptions: options.requestOptions }),
        ...connectOptions,
        logger,
        whenUpstreamReady: () => (supervisor === undefined ? undefined : whenConnected(supervisor)),
        ...(port === undefined ? {} : { port }),
        connectUpstream: (identity) =>
          connectUpstream(
            identity,
            syncState,
            (created) => {
              supervisor = created;
            },
            port,
          ),
        closeUpstream: async () => {
          await supervisor?.close();
        },
      });
      const session: BoundedRelaySession = {
        ready: connection.ready,
        closed,
        get supervisor() {
          return supervisor;
        },
        async close() {
          await connection.close();
          finish();
        },
      };
      // A session can end before its relay was ready (the downstream closed, or the initialize
      // failed after the upstream started): its upstream is stopped here too, not only by the
      // connection's close, so no child process outlives its session.
      const finish = () => {
        sessions.delete(session);
        void supervisor?.close().catch(() => undefined);
        markClosed();
      };
      const relayOnClose = downstream.onclose;
      downstream.onclose = () => {
        relayOnClose?.();
        onclose?.();
        finish();
      };
      connection.ready.catch(() => finish());
      sessions.add(session);
      return session;
    },
    get sessionCount() {
      return sessions.size;
    },
    stats: () => bounded.stats(),
    async close() {
      await Promise.all([...sessions].map((session) => session.close()));
      const pending = shared;
      shared = undefined;
      await pending?.then((supervisor) => supervisor.close()).catch(() => undefined);
    },
  };
}

/** Undefined when the upstream is connected (no wait), else the supervisor's whenConnected. */
function whenConnected(supervisor: UpstreamSupervisor): Promise<void> | undefined {
  return supervisor.state === "connected" ? undefined : supervisor.whenConnected();
}

/**
 * Fails when the upstream lists a tool with the query tool's name (every page), or when its
 * tools/list pages never end (a cursor it already returned), which would hang the initialize.
 */
async function assertNoToolClash(client: Client, queryToolName: string, upstream: string) {
  if (client.getServerCapabilities()?.tools === undefined) return;
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  do {
    if (cursor !== undefined) {
      if (seenCursors.has(cursor)) {
        throw new Error(
          `upstream "${upstream}" returned the same tools/list cursor twice, so its tool list never ends`,
        );
      }
      seenCursors.add(cursor);
    }
    const page = (await requestAsSent(client, {
      method: "tools/list",
      params: cursor === undefined ? {} : { cursor },
    })) as { tools?: { name?: unknown }[]; nextCursor?: string };
    if ((page.tools ?? []).some((tool) => tool.name === queryToolName)) {
      throw new Error(
        `upstream "${upstream}" has a tool named "${queryToolName}", the name of the relay's own query tool; rename or disable it upstream`,
      );
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}

/**
 * The downstream transport as the relay's server sees it: the caller's authInfo and session id
 * filled in when the transport does not provide them.
 */
function withCallerDefaults(downstream: Transport, defaults: RelayConnectOptions): Transport {
  if (defaults.authInfo === undefined && defaults.sessionId === undefined) return downstream;
  const inner: Transport = {
    start: () => downstream.start(),
    send: (message, sendOptions) => downstream.send(message, sendOptions),
    close: () => downstream.close(),
    get sessionId() {
      return downstream.sessionId ?? defaults.sessionId;
    },
  };
  downstream.onmessage = (message, extra) =>
    inner.onmessage?.(
      message,
      defaults.authInfo === undefined || extra?.authInfo !== undefined
        ? extra
        : { ...extra, authInfo: defaults.authInfo },
    );
  downstream.onclose = () => inner.onclose?.();
  downstream.onerror = (error) => inner.onerror?.(error);
  return inner;
}
