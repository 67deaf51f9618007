import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@bounded-mcp/mcp-adapter";
import type { BoundedRelay } from "@bounded-mcp/relay";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AuthTokens } from "./auth-tokens.js";
import { closeAfterAnswer } from "./close-after-answer.js";
import type { ProxyMetrics } from "./metrics.js";
import { NodeHttpServerTransport } from "./node-http-transport.js";
import { readJsonBody } from "./read-body.js";
import { createRequestGuard, type RequestGuard } from "./request-guard.js";
import { createSessionRegistry } from "./session-registry.js";

/** Longest wait for in-flight requests at shutdown before sessions are closed anyway. */
export const SHUTDOWN_GRACE_MS = 30_000;
/** Default longest wait for a request's headers: 10 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Default longest wait for a request body once its headers arrived: 5 s. */
export const DEFAULT_BODY_TIMEOUT_MS = 5_000;

/** The default cap of one principal's sessions: a quarter of --max-sessions, at least 1. */
export function defaultMaxSessionsPerPrincipal(maxSessions: number): number {
  return Math.max(1, Math.floor(maxSessions / 4));
}

/** Options of {@link createHttpProxy}. */
export interface HttpProxyOptions {
  host: string;
  port: number;
  /** The MCP endpoint path, e.g. `/mcp`. */
  path: string;
  /** Serves each session (and each stateless request); closed by the caller. */
  relay: BoundedRelay;
  /** Null: no authentication (sessions are the caller scope). */
  authTokens: AuthTokens | null;
  stateless: boolean;
  maxSessions: number;
  /** Sessions one authenticated principal may hold (429 beyond); default max(1, maxSessions / 4). */
  maxSessionsPerPrincipal?: number;
  idleTimeoutMs: number;
  maxBodyBytes: number;
  /** Longest wait for a request's headers (Node answers 408 and closes); default 10 000. */
  headersTimeoutMs?: number;
  /** Longest wait for a POST body once its headers arrived (408 and close); default 5 000. */
  bodyTimeoutMs?: number;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  /** Served at `GET /metrics` (Prometheus text), like /healthz without a token; null: 404. */
  metrics?: ProxyMetrics | null;
  logger: Logger;
  clock?: () => number;
}

/** A listening HTTP proxy. */
export interface HttpProxy {
  /** The MCP endpoint URL with the port actually bound. */
  readonly url: string;
  /** Stops accepting requests, lets in-flight ones finish, then closes sessions and upstreams. */
  close(): Promise<void>;
}

type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

function sendRpcError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const code = status === 400 ? -32600 : status === 404 ? -32001 : -32000;
  sendJson(response, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === "localhost" || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

function isInitialize(message: unknown): boolean {
  return (
    typeof message === "object" &&
    message !== null &&
    (message as { method?: unknown }).method === "initialize" &&
    isInitializeRequest(message)
  );
}

function isInitializeBody(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInitialize) : isInitialize(body);
}

/**
 * Serves the relay over streamable HTTP (NodeHttpServerTransport, one per session or, stateless,
 * per request). Stateful (default): each downstream session gets its
 * own relay and upstream connection, so client identity, log level and subscriptions stay per
 * client; at most `maxSessions` (503 beyond), closed after `idleTimeoutMs` without requests; a
 * session belongs to the principal that created it. Stateless: one upstream shared by every
 * request, a fresh relay server per request, the bearer token's principal as the caller scope.
 * Every request passes, in order: `GET /healthz` (200, no checks) and `GET /metrics`
 * (Prometheus text, no checks either: it holds counts and tool names, never payloads or ids),
 * path (404), Host (403), Origin (403), bearer token (401 with WWW-Authenticate, then the
 * connection is closed), shutdown (503), body size (413) and body deadline (408), both also
 * closing the connection; a principal over `maxSessionsPerPrincipal` gets 429. Headers must
 * arrive within `headersTimeoutMs` (Node's 408). Listening beyond loopback without tokens logs
 * one warning.
 */
export async function createHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const { logger, relay: boundedRelay } = options;
  const clock = options.clock ?? Date.now;
  const maxSessionsPerPrincipal =
    options.maxSessionsPerPrincipal ?? defaultMaxSessionsPerPrincipal(options.maxSessions);
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const registry = createSessionRegistry({ ...options, maxSessionsPerPrincipal });
  /** Answers a refused request (401, 408, 413) and closes its connection without a reset. */
  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    message: string,
    headers: Record<string, string> = {},
  ) => {
    closeAfterAnswer(request, response, bodyTimeoutMs);
    sendRpcError(response, status, message, headers);
  };
  let stopping = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const track = (response: ServerResponse) => {
    inFlight += 1;
    response.once("close", () => {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    });
  };

  async function openSession(request: AuthedRequest, response: ServerResponse, body: unknown) {
    const principal = request.auth?.clientId ?? null;
    const reserved = registry.reserve(principal);
    if (reserved === "full") {
      sendRpcError(response, 503, `too many sessions (--max-sessions ${options.maxSessions})`, {
        "retry-after": "5",
      });
      return;
    }
    if (reserved === "principal") {
      logger.warn("session refused: the principal holds its share of sessions", {
        principal,
        limit: maxSessionsPerPrincipal,
      });
      sendRpcError(
        response,
        429,
        `too many sessions for this principal (--max-sessions-per-principal ${maxSessionsPerPrincipal}): close one, or wait until one is idle for --idle-timeout`,
        { "retry-after": "5" },
      );
      return;
    }
    let registered = false;
    const transport = new NodeHttpServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        registered = true;
        // The initialize POST is in flight until its answer is out: the idle sweep must not
        // close a session whose upstream is still starting (a slow child on a loaded machine).
        const entry = { relay, transport, principal, lastActive: clock(), inFlight: 1 };
        response.once("close", () => {
          entry.inFlight -= 1;
          entry.lastActive = clock();
        });
        registry.add(sessionId, entry);
        logger.info("session opened", { sessionId, principal });
      },
      onsessionclosed: (sessionId) => {
        registry.remove(sessionId);
        logger.info("session closed", { sessionId });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) registry.remove(transport.sessionId);
    };
    const relay = await boundedRelay.connect(transport);
    relay.ready.catch((error: unknown) =>
      logger.warn("session failed to start", { error: String(error) }),
    );
    try {
      await transport.handleRequest(request, response, body);
    } finally {
      if (!registered) {
        registry.release(principal);
        await relay.close();
      }
    }
  }

  async function handleStateful(request: AuthedRequest, response: ServerResponse, body: unknown) {
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId !== "string") {
      if (request.method === "POST" && isInitializeBody(body)) {
        return openSession(request, response, body);
      }
      return sendRpcError(response, 400, "Bad Request: no valid session id (initialize first)");
    }
    const entry = registry.get(sessionId);
    if (entry === undefined || entry.principal !== (request.auth?.clientId ?? null)) {
      return sendRpcError(response, 404, "Session not found");
    }
    entry.lastActive = clock();
    if (request.method === "POST") {
      entry.inFlight += 1;
      response.once("close", () => {
        entry.inFlight -= 1;
        entry.lastActive = clock();
      });
    }
    await entry.transport.handleRequest(request, response, body);
  }

  async function handleStateless(request: AuthedRequest, response: ServerResponse, body: unknown) {
    const transport = new NodeHttpServerTransport({ sessionIdGenerator: undefined });
    response.once("close", () => void transport.close());
    await boundedRelay.connectStateless(transport);
    await transport.handleRequest(request, response, body);
  }

  // Built once the port is bound (port 0 picks one): requests only arrive after listen.
  let guard: RequestGuard;

  function corsHeaders(request: IncomingMessage): Record<string, string> {
    const origin = request.headers.origin;
    if (origin === undefined) return {};
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "mcp-session-id, www-authenticate",
      vary: "Origin",
    };
  }

  async function handle(request: AuthedRequest, response: ServerResponse) {
    // The endpoint itself, the common case, needs no URL parse.
    const pathname =
      request.url === options.path
        ? options.path
        : new URL(request.url ?? "/", "http://localhost").pathname;
    if (pathname === "/healthz" && request.method === "GET") {
      return sendJson(response, 200, { status: stopping ? "stopping" : "ok" });
    }
    if (pathname === "/metrics" && request.method === "GET" && options.metrics) {
      const text = await options.metrics.render();
      response.writeHead(200, { "content-type": options.metrics.contentType });
      return response.end(text);
    }
    if (pathname !== options.path) return sendRpcError(response, 404, "Not Found");
    if (!guard.hostAllowed(request)) {
      return sendRpcError(response, 403, `Host "${request.headers.host}" is not allowed`);
    }
    if (!guard.originAllowed(request)) {
      return sendRpcError(response, 403, `Origin "${request.headers.origin}" is not allowed`);
    }
    for (const [name, value] of Object.entries(corsHeaders(request))) {
      response.setHeader(name, value);
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204, {
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers":
          "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
        "access-control-max-age": "600",
      });
      return response.end();
    }
    if (options.authTokens !== null) {
      const auth = options.authTokens.authenticate(request.headers.authorization);
      if (auth === null) {
        const error = request.headers.authorization === undefined ? "" : ', error="invalid_token"';
        // Closed right after the answer: an unauthenticated caller holds no connection.
        return refuse(request, response, 401, "Unauthorized: a valid bearer token is required", {
          "www-authenticate": `Bearer realm="bounded-mcp-proxy"${error}`,
        });
      }
      request.auth = auth;
    }
    if (stopping) {
      return sendRpcError(response, 503, "shutting down", { connection: "close" });
    }
    let body: unknown;
    if (request.method === "POST") {
      track(response);
      const outcome = await readJsonBody(request, {
        maxBytes: options.maxBodyBytes,
        timeoutMs: bodyTimeoutMs,
      });
      if (!outcome.ok) {
        const flag = outcome.status === 413 ? " (--max-body-bytes)" : "";
        const timeout = outcome.status === 408 ? " (--body-timeout)" : "";
        return refuse(request, response, outcome.status, `${outcome.message}${flag}${timeout}`);
      }
      body = outcome.value;
    }
    if (options.stateless) return handleStateless(request, response, body);
    return handleStateful(request, response, body);
  }

  const server = createServer(
    {
      // Node answers 408 and closes a connection whose headers take longer; its checks run on
      // this interval, so it is kept well under the timeouts.
      headersTimeout: headersTimeoutMs,
      requestTimeout: headersTimeoutMs + bodyTimeoutMs + 1_000,
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(Math.min(headersTimeoutMs, bodyTimeoutMs) / 4)),
      ),
    },
    (request, response) => {
      handle(request, response).catch((error: unknown) => {
        logger.error("request failed", { error: error instanceof Error ? error.message : error });
        // A stream already under way cannot turn into a 500: end it rather than leave it hanging.
        if (response.headersSent) response.end();
        else sendRpcError(response, 500, "Internal error");
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  guard = createRequestGuard({ ...options, port });
  if (options.authTokens === null && !isLoopbackHost(options.host)) {
    logger.warn(
      `listening on ${options.host}, beyond loopback, without --auth-tokens: anyone who can reach the port can call the upstream's tools`,
      { host: options.host },
    );
  }
  const sweep = setInterval(
    () =>
      void registry.closeIdle(clock()).then((closed) => {
        for (const sessionId of closed) logger.info("session closed: idle", { sessionId });
      }),
    Math.max(50, Math.min(options.idleTimeoutMs / 2, 60_000)),
  );
  sweep.unref();
  const hostText = options.host.includes(":") ? `[${options.host}]` : options.host;

  return {
    url: `http://${hostText}:${port}${options.path}`,
    async close() {
      stopping = true;
      clearInterval(sweep);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, SHUTDOWN_GRACE_MS).unref();
        });
      }
      await registry.closeAll();
      server.closeAllConnections();
      await closed;
    },
  };
}
