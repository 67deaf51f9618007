import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isInitializeRequest,
  type JSONRPCMessage,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { checkJsonRpcMessages } from "./json-rpc-shape.js";

/** Largest JSON-RPC batch one POST may carry (the SDK's own limit). */
export const MAX_BATCH_MESSAGES = 100;
/** Default interval of SSE keep-alive comments: 15 s. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** Default wait for the answers of a POST before its reply becomes an SSE stream: 100 ms. */
export const DEFAULT_STREAM_AFTER_MS = 100;

/** Options of {@link NodeHttpServerTransport}. */
export interface NodeHttpTransportOptions {
  /** Makes the session id at initialize; undefined: stateless (one transport per request). */
  sessionIdGenerator?: (() => string) | undefined;
  /** Called with the new session id once an initialize request is accepted. */
  onsessioninitialized?: (sessionId: string) => void;
  /** Called with the session id when the client ends the session with DELETE. */
  onsessionclosed?: (sessionId: string) => void;
  /**
   * How long the answers of a POST may take before its reply becomes an SSE stream (its headers
   * sent at once, so the client sees the request accepted while it runs); default 100 ms.
   */
  streamAfterMs?: number;
  /** Interval of the keep-alive comments of an open SSE stream (idle timeouts of proxies). */
  keepAliveMs?: number;
}

/** One POST that carries requests: where their answers and related messages go. */
interface Exchange {
  readonly response: ServerResponse;
  /** The requests of the POST still unanswered. */
  readonly waiting: Set<RequestId>;
  /** Answers held until the reply's form is decided (a JSON reply holds all of them). */
  readonly answers: JSONRPCMessage[];
  readonly batch: boolean;
  /** "sse" once the stream's headers are out; undefined while a JSON reply is still possible. */
  mode: "sse" | undefined;
  /** The client went away before every answer was sent. */
  gone: boolean;
  keepAlive: NodeJS.Timeout | undefined;
}

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !("method" in message) && ("result" in message || "error" in message);
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "method" in message && "id" in message && message.id !== undefined;
}

function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * The MCP streamable HTTP server transport written on node:http, in place of the SDK's
 * StreamableHTTPServerTransport (which converts every request and answer to web-standard
 * Request, Response and ReadableStream objects through @hono/node-server, several times the CPU
 * of the engine's own work per query). Same protocol as the SDK's (2025-03-26 onwards):
 * POST with `Accept` naming both application/json and text/event-stream (406), a JSON
 * Content-Type (415), at most 100 messages a batch (400); initialize makes the session
 * (`Mcp-Session-Id` on every later answer) and is refused when repeated (400); other requests need
 * the session id (400 without, 404 for another) and a supported `MCP-Protocol-Version` when one
 * is sent (400); a POST of notifications or responses only gets 202; GET opens the one standalone
 * SSE stream of the session (409 for a second); DELETE ends the session; others get 405.
 * The reply of a POST with requests is decided by what comes first: when the answers are ready
 * before any related notification or request, one JSON body (the spec lets the server choose);
 * once the server sends a related message (progress, a sampling request) or the answers take
 * longer than `streamAfterMs`, an SSE stream (keep-alive comments every `keepAliveMs`) that ends
 * after the last answer. Incoming messages of the usual
 * shapes skip the SDK's zod check (checkJsonRpcMessages). Limits: no event store, so no
 * resumption (Last-Event-ID) and no closeSSEStream; the body is read and parsed by the caller.
 */
export class NodeHttpServerTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  readonly #options: NodeHttpTransportOptions;
  readonly #keepAliveMs: number;
  readonly #streamAfterMs: number;
  readonly #exchanges = new Map<RequestId, Exchange>();
  #standalone: ServerResponse | undefined;
  #standaloneKeepAlive: NodeJS.Timeout | undefined;
  #started = false;
  #initialized = false;
  #handled = false;
  #closed = false;

  constructor(options: NodeHttpTransportOptions = {}) {
    this.#options = options;
    this.#keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.#streamAfterMs = options.streamAfterMs ?? DEFAULT_STREAM_AFTER_MS;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("Transport already started");
    this.#started = true;
  }

  /** Serves one HTTP request of this session (or, stateless, the one request). */
  async handleRequest(
    request: IncomingMessage & { auth?: AuthInfo },
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    if (this.#closed) return this.#refuse(response, 404, -32001, "Session not found");
    if (this.#options.sessionIdGenerator === undefined && this.#handled) {
      throw new Error(
        "Stateless transport cannot be reused across requests. Create a new transport per request.",
      );
    }
    this.#handled = true;
    switch (request.method) {
      case "POST":
        return this.#post(request, response, parsedBody);
      case "GET":
        return this.#get(request, response);
      case "DELETE":
        return this.#delete(request, response);
      default:
        this.onerror?.(new Error("Method not allowed."));
        response.setHeader("allow", "GET, POST, DELETE");
        return this.#refuse(response, 405, -32000, "Method not allowed.");
    }
  }

  #refuse(response: ServerResponse, status: number, code: number, message: string): void {
    if (response.headersSent) return void response.end();
    const text = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
    });
    response.end(text);
  }

  /** Answers the error and tells onerror, as the SDK's transport does. */
  #fail(response: ServerResponse, status: number, code: number, message: string): void {
    this.onerror?.(new Error(message));
    this.#refuse(response, status, code, message);
  }

  /** The session and protocol-version checks of every request but initialize; true when passed. */
  #checkSession(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.#options.sessionIdGenerator !== undefined) {
      if (!this.#initialized) {
        this.#fail(response, 400, -32000, "Bad Request: Server not initialized");
        return false;
      }
      const sessionId = request.headers["mcp-session-id"];
      if (sessionId === undefined || sessionId === "") {
        this.#fail(response, 400, -32000, "Bad Request: Mcp-Session-Id header is required");
        return false;
      }
      if (sessionId !== this.sessionId) {
        this.#fail(response, 404, -32001, "Session not found");
        return false;
      }
    }
    const version = request.headers["mcp-protocol-version"];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
      const supported = SUPPORTED_PROTOCOL_VERSIONS.join(", ");
      this.#fail(
        response,
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
      );
      return false;
    }
    return true;
  }

  #headers(extra: Record<string, string | number>): Record<string, string | number> {
    return this.sessionId === undefined ? extra : { ...extra, "mcp-session-id": this.sessionId };
  }

  async #post(
    request: IncomingMessage & { auth?: AuthInfo },
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const accept = request.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return this.#fail(
        response,
        406,
        -32000,
        "Not Acceptable: Client must accept both application/json and text/event-stream",
      );
    }
    if (!isJsonContentType(request.headers["content-type"])) {
      return this.#fail(
        response,
        415,
        -32000,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_MESSAGES) {
      return this.#fail(
        response,
        400,
        -32600,
        `Invalid Request: Batch must not exceed ${MAX_BATCH_MESSAGES} messages`,
      );
    }
    const messages = checkJsonRpcMessages(body);
    if (messages === null) {
      return this.#fail(response, 400, -32700, "Parse error: Invalid JSON-RPC message");
    }
    // The method first: the SDK's isInitializeRequest is a zod parse, costly when it fails.
    const initializing = messages.some(
      (message) =>
        "method" in message && message.method === "initialize" && isInitializeRequest(message),
    );
    if (initializing) {
      if (this.#initialized && this.sessionId !== undefined) {
        return this.#fail(response, 400, -32600, "Invalid Request: Server already initialized");
      }
      if (messages.length > 1) {
        return this.#fail(
          response,
          400,
          -32600,
          "Invalid Request: Only one initialization request is allowed",
        );
      }
      this.sessionId = this.#options.sessionIdGenerator?.();
      this.#initialized = true;
      if (this.sessionId !== undefined) this.#options.onsessioninitialized?.(this.sessionId);
    } else if (!this.#checkSession(request, response)) {
      return;
    }
    if (this.#closed) return this.#refuse(response, 404, -32001, "Session not found");
    const extra = {
      ...(request.auth === undefined ? {} : { authInfo: request.auth }),
      requestInfo: { headers: request.headers },
    };
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, extra);
      response.writeHead(202, this.#headers({}));
      response.end();
      return;
    }
    const exchange: Exchange = {
      response,
      waiting: new Set(requests.map((message) => message.id)),
      answers: [],
      batch: Array.isArray(body),
      mode: undefined,
      gone: false,
      keepAlive: undefined,
    };
    for (const id of exchange.waiting) this.#exchanges.set(id, exchange);
    response.once("close", () => {
      this.#stopKeepAlive(exchange);
      if (exchange.waiting.size > 0) exchange.gone = true;
    });
    try {
      for (const message of messages) this.onmessage?.(message, extra);
    } catch (error) {
      this.#forget(exchange);
      throw error;
    }
    if (exchange.waiting.size > 0 && !this.#closed) {
      exchange.keepAlive = setTimeout(() => this.#openStream(exchange), this.#streamAfterMs);
      exchange.keepAlive.unref();
    }
  }

  #stopKeepAlive(exchange: Exchange): void {
    if (exchange.keepAlive !== undefined) clearTimeout(exchange.keepAlive);
    exchange.keepAlive = undefined;
  }

  /**
   * Turns the exchange's reply into an SSE stream (headers out at once, keep-alive comments
   * while it is open), sending the answers held so far.
   */
  #openStream(exchange: Exchange): void {
    if (exchange.mode === "sse" || exchange.gone) return;
    this.#stopKeepAlive(exchange);
    exchange.mode = "sse";
    const { response } = exchange;
    response.writeHead(200, this.#headers(SSE_HEADERS));
    if (exchange.answers.length === 0) response.flushHeaders();
    for (const answer of exchange.answers) response.write(sseEvent(answer));
    exchange.answers.length = 0;
    if (Number.isFinite(this.#keepAliveMs) && this.#keepAliveMs >= 1) {
      exchange.keepAlive = setInterval(() => response.write(": keepalive\n\n"), this.#keepAliveMs);
      exchange.keepAlive.unref();
    }
  }

  #forget(exchange: Exchange): void {
    this.#stopKeepAlive(exchange);
    for (const id of exchange.waiting) {
      if (this.#exchanges.get(id) === exchange) this.#exchanges.delete(id);
    }
    exchange.waiting.clear();
  }

  async #get(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!(request.headers.accept ?? "").includes("text/event-stream")) {
      return this.#fail(
        response,
        406,
        -32000,
        "Not Acceptable: Client must accept text/event-stream",
      );
    }
    if (!this.#checkSession(request, response)) return;
    if (this.#standalone !== undefined) {
      return this.#fail(
        response,
        409,
        -32000,
        "Conflict: Only one SSE stream is allowed per session",
      );
    }
    this.#standalone = response;
    response.writeHead(200, this.#headers(SSE_HEADERS));
    response.flushHeaders();
    const stop = () => {
      if (this.#standaloneKeepAlive !== undefined) clearInterval(this.#standaloneKeepAlive);
      this.#standaloneKeepAlive = undefined;
      if (this.#standalone === response) this.#standalone = undefined;
    };
    response.once("close", stop);
    if (Number.isFinite(this.#keepAliveMs) && this.#keepAliveMs >= 1) {
      this.#standaloneKeepAlive = setInterval(
        () => response.write(": keepalive\n\n"),
        this.#keepAliveMs,
      );
      this.#standaloneKeepAlive.unref();
    }
  }

  async #delete(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.#checkSession(request, response)) return;
    try {
      if (this.sessionId !== undefined) this.#options.onsessionclosed?.(this.sessionId);
      response.writeHead(200);
      response.end();
    } finally {
      await this.close();
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isAnswer(message);
    const requestId = answer ? message.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (answer) {
        throw new Error(
          "Cannot send a response on a standalone SSE stream unless resuming a previous client request",
        );
      }
      // Without an event store a message for a missing stream is dropped, as the SDK does.
      this.#standalone?.write(sseEvent(message));
      return;
    }
    const exchange = this.#exchanges.get(requestId);
    if (exchange === undefined) {
      throw new Error(`No connection established for request ID: ${String(requestId)}`);
    }
    if (exchange.gone) {
      if (answer) {
        this.#exchanges.delete(requestId);
        exchange.waiting.delete(requestId);
        if (exchange.waiting.size === 0) {
          throw new Error(`No connection established for request ID: ${String(requestId)}`);
        }
      }
      return;
    }
    if (!answer) {
      this.#openStream(exchange);
      exchange.response.write(sseEvent(message));
      return;
    }
    this.#exchanges.delete(requestId);
    exchange.waiting.delete(requestId);
    if (exchange.mode === "sse") exchange.response.write(sseEvent(message));
    else exchange.answers.push(message);
    if (exchange.waiting.size > 0) return;
    this.#stopKeepAlive(exchange);
    if (exchange.mode === "sse") {
      exchange.response.end();
      return;
    }
    const text = JSON.stringify(exchange.batch ? exchange.answers : exchange.answers[0]);
    exchange.response.writeHead(
      200,
      this.#headers({
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      }),
    );
    exchange.response.end(text);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const exchange of new Set(this.#exchanges.values())) {
      this.#forget(exchange);
      if (!exchange.gone && !exchange.response.writableEnded) {
        // What the SDK's transport does: the stream ends without the answers.
        this.#openStream(exchange);
        exchange.response.end();
      }
    }
    this.#exchanges.clear();
    this.#standalone?.end();
    this.#standalone = undefined;
    this.onclose?.();
  }
}

/** application/json, with parameters or none (a parsed media type, not a substring). */
function isJsonContentType(header: string | undefined): boolean {
  if (header === "application/json") return true;
  if (header === undefined) return false;
  return header.split(";", 1)[0]!.trim().toLowerCase() === "application/json";
}
