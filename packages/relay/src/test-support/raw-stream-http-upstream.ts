import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LITERAL_STRUCTURED } from "./literal-http-upstream.js";

/** What each tool answers as its `result`, written raw (LITERAL_STRUCTURED as its literal text). */
const RESULTS: Record<string, string> = {
  literal: `{"content":[{"type":"text","text":"literal"}],"structuredContent":${LITERAL_STRUCTURED}}`,
  null_result: "null",
  echo: '{"content":[{"type":"text","text":"ok"}]}',
};

/**
 * How a tools/call is answered, by the suffix of the tool's name: `_get` on the standalone GET
 * stream (the POST gets 202), `_batch` as a JSON batch body, `_batch_sse` as one SSE event whose
 * data is a batch; each batch also holds a log notification before the answer.
 */
const ROUTES = ["_get", "_batch", "_batch_sse"] as const;
type Route = (typeof ROUTES)[number];

const NOTIFICATION =
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}}';

/** A running upstream: its URL, the answers written so far, how to stop it. */
export interface RawStreamHttpUpstream {
  url: string;
  /** One per tools/call answered, resolved once its answer was written. */
  readonly answered: Promise<unknown>[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sseEvent(data: string): string {
  return `event: message\ndata: ${data.split("\n").join("\ndata: ")}\n\n`;
}

function routeOf(name: string): { route: Route | undefined; tool: string } {
  const route = [...ROUTES].reverse().find((suffix) => name.endsWith(suffix));
  return { route, tool: route === undefined ? name : name.slice(0, -route.length) };
}

/**
 * Streamable HTTP written by hand, as servers in other languages may answer (the SDK's server
 * sends no answer on the standalone GET stream and no batch): initialize as JSON with a session
 * id, notifications 202, one standalone GET stream kept open, tools/list, and tools/call
 * answered by RESULTS along the route its name asks for (see ROUTES; no suffix: a JSON body).
 */
export async function startRawStreamHttpUpstream(): Promise<RawStreamHttpUpstream> {
  const answered: Promise<unknown>[] = [];
  let getStream: ServerResponse | undefined;
  let gotStream: () => void = () => undefined;
  const streamOpen = new Promise<void>((resolve) => {
    gotStream = resolve;
  });

  async function onGetStream(data: string): Promise<void> {
    await streamOpen;
    await new Promise<void>((resolve) => getStream?.write(sseEvent(data), () => resolve()));
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === "GET") {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.flushHeaders();
      getStream = response;
      gotStream();
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await readBody(request)) as {
      id?: number;
      method: string;
      params?: { name?: string; protocolVersion?: string };
    };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const json = { "content-type": "application/json", "mcp-session-id": "raw-stream" };
    if (message.method === "initialize") {
      const result = {
        protocolVersion: message.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "raw-stream-http", version: "1.0.0" },
      };
      response.writeHead(200, json).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      return;
    }
    if (message.method === "tools/list") {
      const tools = Object.keys(RESULTS).flatMap((tool) =>
        ["", ...ROUTES].map((route) => ({
          name: `${tool}${route}`,
          inputSchema: { type: "object" },
        })),
      );
      const result = { tools };
      response.writeHead(200, json).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      return;
    }
    const { route, tool } = routeOf(String(message.params?.name));
    const answer = `{"jsonrpc":"2.0","id":${message.id},"result":${RESULTS[tool] ?? "{}"}}`;
    if (route === "_get") {
      response.writeHead(202).end();
      answered.push(onGetStream(answer));
      return;
    }
    if (route === "_batch_sse") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(sseEvent(`[${NOTIFICATION},\n${answer}]`));
    } else {
      response.writeHead(200, json);
      response.end(route === "_batch" ? `[${NOTIFICATION}, ${answer}]` : answer);
    }
    answered.push(once(response, "finish"));
  }

  const http = createServer((request, response) => void serve(request, response));
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
