import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NodeHttpServerTransport } from "./node-http-transport.js";

// A real SDK Server behind NodeHttpServerTransport on 127.0.0.1 port 0, called by a real SDK
// Client over streamable HTTP and by plain fetch for the wire shapes.

/** Tools: `quick` answers at once; `progress` sends a progress notification first. */
function mcpServer(): Server {
  const server = new Server(
    { name: "transport-test", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "quick", inputSchema: { type: "object" } },
      { name: "progress", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === "progress") {
      await extra.sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: request.params._meta?.progressToken ?? "none",
          progress: 1,
          total: 2,
        },
      });
    }
    return { content: [{ type: "text", text: `${request.params.name} done` }] };
  });
  return server;
}

const transports = new Map<string, NodeHttpServerTransport>();
const servers = new Map<string, Server>();
let url: string;
let close: () => Promise<void>;

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text === "" ? undefined : JSON.parse(text));
    });
  });
}

beforeAll(async () => {
  const http = createServer(async (request, response) => {
    const body = request.method === "POST" ? await readBody(request) : undefined;
    const sessionId = request.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      if (typeof sessionId === "string") {
        response.writeHead(404).end();
        return;
      }
      const server = mcpServer();
      const created = new NodeHttpServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          transports.set(id, created);
          servers.set(id, server);
        },
      });
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  close = async () => {
    await Promise.all([...servers.values()].map((server) => server.close()));
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
});

afterAll(async () => {
  await close();
});

const ACCEPT = "application/json, text/event-stream";

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Opens a session with plain fetch; its headers for later requests. */
async function openSession(): Promise<{
  "mcp-session-id": string;
  "mcp-protocol-version": string;
}> {
  const response = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "fetch", version: "1.0.0" },
    },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/json");
  const headers = {
    "mcp-session-id": response.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
  };
  await response.text();
  expect(
    (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status,
  ).toBe(202);
  return headers;
}

async function answer(response: Response) {
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    body: await response.text(),
  };
}

describe("NodeHttpServerTransport", () => {
  it("serves a real SDK client: a quick call, a call with progress, tools/list", async () => {
    const client = new Client({ name: "sdk", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const progress: unknown[] = [];
    expect(await client.callTool({ name: "quick", arguments: {} })).toEqual({
      content: [{ type: "text", text: "quick done" }],
    });
    expect(
      await client.callTool({ name: "progress", arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update),
      }),
    ).toEqual({ content: [{ type: "text", text: "progress done" }] });
    expect(progress).toEqual([{ progress: 1, total: 2 }]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "quick",
      "progress",
    ]);
    await client.close();
  });

  it("answers a quick request with one JSON body and a request with progress as an SSE stream", async () => {
    const session = await openSession();
    const quick = await post(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "quick", arguments: {} } },
      session,
    );
    expect(quick.headers.get("mcp-session-id")).toBe(session["mcp-session-id"]);
    expect(await answer(quick)).toMatchInlineSnapshot(`
      {
        "body": "{"result":{"content":[{"type":"text","text":"quick done"}]},"jsonrpc":"2.0","id":1}",
        "status": 200,
        "type": "application/json",
      }
    `);
    const streamed = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "progress", arguments: {}, _meta: { progressToken: 7 } },
      },
      session,
    );
    expect(await answer(streamed)).toMatchInlineSnapshot(`
      {
        "body": "event: message
      data: {"method":"notifications/progress","params":{"progressToken":7,"progress":1,"total":2},"jsonrpc":"2.0"}

      event: message
      data: {"result":{"content":[{"type":"text","text":"progress done"}]},"jsonrpc":"2.0","id":2}

      ",
        "status": 200,
        "type": "text/event-stream",
      }
    `);
    const batch = await post(
      [
        { jsonrpc: "2.0", id: 3, method: "ping" },
        { jsonrpc: "2.0", id: 4, method: "ping" },
      ],
      session,
    );
    expect(await answer(batch)).toMatchInlineSnapshot(`
      {
        "body": "[{"result":{},"jsonrpc":"2.0","id":3},{"result":{},"jsonrpc":"2.0","id":4}]",
        "status": 200,
        "type": "application/json",
      }
    `);
  });

  it("refuses what the streamable HTTP transport refuses, with the SDK's answers", async () => {
    const session = await openSession();
    const ping = { jsonrpc: "2.0", id: 9, method: "ping" };
    const refusals = [
      await post(ping, { ...session, accept: "application/json" }),
      await post(ping, { ...session, "content-type": "text/plain" }),
      await post(ping, {
        "mcp-session-id": session["mcp-session-id"],
        "mcp-protocol-version": "1999-01-01",
      }),
      await post({ jsonrpc: "2.0", id: 9, method: 12 }, session),
      await post(Array(101).fill(ping), session),
      await post(
        {
          jsonrpc: "2.0",
          id: 10,
          method: "initialize",
          params: {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: "again", version: "1" },
          },
        },
        session,
      ),
      await fetch(url, { method: "PUT", headers: session }),
      await fetch(url, { method: "GET", headers: { ...session, accept: "application/json" } }),
    ];
    expect(await Promise.all(refusals.map(answer))).toMatchInlineSnapshot(`
      [
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable: Client must accept both application/json and text/event-stream"},"id":null}",
          "status": 406,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32000,"message":"Unsupported Media Type: Content-Type must be application/json"},"id":null}",
          "status": 415,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)"},"id":null}",
          "status": 400,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: Invalid JSON-RPC message"},"id":null}",
          "status": 400,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: Batch must not exceed 100 messages"},"id":null}",
          "status": 400,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: Server already initialized"},"id":null}",
          "status": 400,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}",
          "status": 405,
          "type": "application/json",
        },
        {
          "body": "{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable: Client must accept text/event-stream"},"id":null}",
          "status": 406,
          "type": "application/json",
        },
      ]
    `);
  });

  it("sends server messages on the one standalone GET stream and ends the session on DELETE", async () => {
    const session = await openSession();
    const stream = await fetch(url, { headers: { ...session, accept: "text/event-stream" } });
    expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const second = await fetch(url, { headers: { ...session, accept: "text/event-stream" } });
    expect(await answer(second)).toMatchObject({ status: 409 });
    await servers.get(session["mcp-session-id"]!)!.sendToolListChanged();
    const reader = stream.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe(
      'event: message\ndata: {"method":"notifications/tools/list_changed","jsonrpc":"2.0"}\n\n',
    );
    const ended = await fetch(url, { method: "DELETE", headers: session });
    expect(ended.status).toBe(200);
    expect((await reader.read()).done).toBe(true);
    expect(
      await answer(await post({ jsonrpc: "2.0", id: 11, method: "ping" }, session)),
    ).toMatchObject({
      status: 404,
      body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
    });
  });
});
