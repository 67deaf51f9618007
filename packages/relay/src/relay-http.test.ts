import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as McpLowLevelServer } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** An SDK McpServer over stateless streamable HTTP that records every request's headers. */
async function startUpstream() {
  const headers: IncomingHttpHeaders[] = [];
  const http = createServer(async (request, response) => {
    headers.push(request.headers);
    const server = new McpServer({ name: "http-upstream", version: "2.0.0" });
    server.registerTool(
      "echo",
      { description: "Returns its text.", inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    server.registerTool(
      "rows",
      { description: "Returns many rows as JSON.", inputSchema: { count: z.number() } },
      async ({ count }) => ({
        content: [
          {
            type: "text",
            text: JSON.stringify({ rows: Array.from({ length: count }, (_, id) => ({ id })) }),
          },
        ],
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  return { url: await listen(http), headers };
}

function startRelay(bounded: BoundedMcp, url: string): BoundedRelay {
  const relay = createBoundedRelay({
    bounded,
    upstream: { kind: "http", url, headers: { "X-Relay-Test": "s3cr3t" }, name: "http-upstream" },
  });
  cleanups.push(() => relay.close());
  return relay;
}

function createAdapter(): BoundedMcp {
  const bounded = createBoundedMcp({ environment: {} });
  cleanups.push(() => bounded.dispose());
  return bounded;
}

describe("a relay over a streamable HTTP upstream", () => {
  it("sends the custom headers on every upstream request and relays calls", async () => {
    const upstream = await startUpstream();
    const relay = startRelay(createAdapter(), upstream.url);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await relay.connect(serverSide);
    const downstream = new Client({ name: "http-relay-test", version: "1.0.0" });
    await downstream.connect(clientSide);
    await session.ready;
    expect(await downstream.callTool({ name: "echo", arguments: { text: "over http" } })).toEqual({
      content: [{ type: "text", text: "over http" }],
    });
    expect(downstream.getServerVersion()).toEqual({ name: "http-upstream", version: "2.0.0" });
    expect(upstream.headers.length).toBeGreaterThanOrEqual(3);
    expect(upstream.headers.map((headers) => headers["x-relay-test"])).toEqual(
      upstream.headers.map(() => "s3cr3t"),
    );
  });

  it("serves stateless downstream requests over one shared upstream, bounded per principal", async () => {
    const upstream = await startUpstream();
    const relay = startRelay(createAdapter(), upstream.url);
    const front = createServer(async (request, response) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => void transport.close());
      const principal = String(request.headers["x-principal"]);
      await relay.connectStateless(transport, {
        authInfo: { token: principal, clientId: principal, scopes: [] },
      });
      await transport.handleRequest(request, response);
    });
    const url = await listen(front);
    const clientOf = async (principal: string) => {
      const client = new Client({ name: `stateless-${principal}`, version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { "X-Principal": principal } },
        }),
      );
      cleanups.push(() => client.close());
      return client;
    };
    const alice = await clientOf("alice");
    const bob = await clientOf("bob");
    const names = (await alice.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["echo", "rows", QUERY_TOOL_NAME]);
    const bounded = (await alice.callTool({
      name: "rows",
      arguments: { count: 20_000 },
    })) as unknown as {
      structuredContent: { responseMeta: { artifact: { id: string } } };
    };
    const artifactId = bounded.structuredContent.responseMeta.artifact.id;
    const own = await alice.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId, responsePath: "/rows", pageSize: 2 },
    });
    expect(own.structuredContent).toMatchObject({ response: [{ id: 0 }, { id: 1 }] });
    const foreign = await bob.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId, responsePath: "/rows", pageSize: 2 },
    });
    expect(foreign).toMatchObject({
      isError: true,
      structuredContent: {
        artifactId,
        response: { error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } } },
      },
    });
  });

  it("fails the initialize with a clear error when the upstream's tools/list pages never end", async () => {
    const http = createServer(async (request, response) => {
      const server = new McpLowLevelServer(
        { name: "endless", version: "1.0.0" },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
        nextCursor: "page-2",
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(request, response);
    });
    const relay = createBoundedRelay({
      bounded: createAdapter(),
      upstream: { kind: "http", url: await listen(http), name: "endless" },
    });
    cleanups.push(() => relay.close());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await relay.connect(serverSide);
    const downstream = new Client({ name: "endless-test", version: "1.0.0" });
    const message =
      'upstream "endless" returned the same tools/list cursor twice, so its tool list never ends';
    await expect(downstream.connect(clientSide)).rejects.toThrow(
      `MCP error -32603: the upstream could not be connected: ${message}`,
    );
    await expect(session.ready).rejects.toThrow(message);
  });
});
