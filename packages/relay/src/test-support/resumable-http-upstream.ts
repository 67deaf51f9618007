import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type EventStore,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LITERAL_STRUCTURED } from "./literal-http-upstream.js";

/**
 * The SDK server's EventStore (resumability) kept in memory, events in the order stored (the
 * SDK's example store orders them by a time-and-random id, which can misorder two in one ms).
 */
function createEventStore(): EventStore {
  const events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];
  return {
    async storeEvent(streamId, message) {
      const id = String(events.length + 1);
      events.push({ id, streamId, message });
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find(({ id }) => id === eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.findIndex(({ id }) => id === lastEventId);
      const streamId = events[last]?.streamId ?? "";
      for (const event of events.slice(last + 1)) {
        if (event.streamId === streamId) await send(event.id, event.message);
      }
      return streamId;
    },
  };
}

/** A running upstream: its URL, how many streams were resumed, how to stop it. */
export interface ResumableHttpUpstream {
  url: string;
  /** GET requests that carried a Last-Event-ID (the client resuming a dropped stream). */
  readonly resumes: number;
  close(): Promise<void>;
}

/** Each SSE event of the SDK with LITERAL_STRUCTURED's compact serialization written as the literal. */
function withLiteral(chunk: string): string {
  const serialized = JSON.stringify(JSON.parse(LITERAL_STRUCTURED));
  return chunk.replace(serialized, () => LITERAL_STRUCTURED.split("\n").join("\ndata: "));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Hands one node request to the web-standard transport and streams its answer back, event by event. */
async function serve(
  transport: WebStandardStreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = request.method === "POST" ? await readBody(request) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const answer = await transport.handleRequest(
    new Request(`http://127.0.0.1${request.url ?? "/"}`, {
      method: request.method ?? "GET",
      headers,
      ...(body === undefined ? {} : { body }),
    }),
  );
  const outgoing: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (name !== "content-length") outgoing[name] = value;
  });
  response.writeHead(answer.status, outgoing);
  if (answer.body === null) {
    response.end();
    return;
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  response.on("close", () => void reader.cancel().catch(() => undefined));
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    response.write(withLiteral(read.value));
  }
  response.end();
}

/**
 * A real SDK McpServer behind the SDK's web-standard streamable HTTP server transport with an
 * EventStore (stateful, one session), on 127.0.0.1 port 0. Its tool `literal` closes the SSE
 * stream of its own POST (`extra.closeSSEStream`, after the SDK's priming event) before it
 * answers, so the answer is stored and reaches the client only on the GET with which the
 * client's transport resumes the stream (Last-Event-ID, after the server's `retry` of 1 ms);
 * LITERAL_STRUCTURED is written on the wire as its upstream would write it (see withLiteral).
 * `small` answers on its POST as usual.
 */
export async function startResumableHttpUpstream(): Promise<ResumableHttpUpstream> {
  let resumes = 0;
  const server = new McpServer({ name: "resumable-http", version: "1.0.0" });
  server.registerTool("literal", { description: "Answers after a resume." }, async (extra) => {
    extra.closeSSEStream?.();
    return {
      content: [{ type: "text", text: "literal" }],
      structuredContent: JSON.parse(LITERAL_STRUCTURED) as Record<string, unknown>,
    };
  });
  server.registerTool("small", { description: "A small structuredContent." }, async () => ({
    content: [{ type: "text", text: "small" }],
    structuredContent: { small: true },
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    eventStore: createEventStore(),
    retryInterval: 1,
  });
  await server.connect(transport);
  const http = createServer((request, response) => {
    if (request.method === "GET" && request.headers["last-event-id"] !== undefined) resumes += 1;
    void serve(transport, request, response);
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    get resumes() {
      return resumes;
    },
    async close() {
      await server.close();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
