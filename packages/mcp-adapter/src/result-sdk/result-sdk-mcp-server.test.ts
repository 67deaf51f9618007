import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getRawCallToolRequest, setRawCallToolResult } from "./call-context.js";
import {
  type CallResultHook,
  createCallInterceptor,
  createResultSdkTransport,
} from "./call-interceptor.js";
import { connectClient } from "./test-support/connect-client.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A promise with its resolve function, to interleave two calls deterministically. */
function createGate() {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function connect(server: McpServer, onResult?: CallResultHook) {
  const wrap =
    onResult === undefined
      ? createResultSdkTransport
      : createCallInterceptor({ onResult }).wrapTransport.bind(null);
  const connection = await connectClient(server, (transport) => wrap(transport));
  closers.push(connection.close);
  return connection.client;
}

function echoServer(): McpServer {
  const server = new McpServer({ name: "mcp-server", version: "1.0.0" });
  server.registerTool(
    "echo",
    { inputSchema: { label: z.string() } },
    async ({ label }): Promise<CallToolResult> => {
      setRawCallToolResult({
        _meta: { label, traceId: getRawCallToolRequest()?.params._meta?.["traceId"] },
      });
      return { content: [{ type: "text", text: `derived ${label}` }] };
    },
  );
  return server;
}

describe("the result SDK with an McpServer (transport decorator)", () => {
  it("gives the tool callback the raw request, including _meta McpServer does not pass on", async () => {
    let seen: CallToolRequest | null = null;
    const server = new McpServer({ name: "mcp-server", version: "1.0.0" });
    server.registerTool("inspect", { inputSchema: { n: z.number() } }, async () => {
      seen = getRawCallToolRequest();
      return { content: [] };
    });
    const client = await connect(server);
    await client.callTool({ name: "inspect", arguments: { n: 1 }, _meta: { traceId: "abc" } });
    expect(seen).toEqual({
      method: "tools/call",
      params: { name: "inspect", arguments: { n: 1 }, _meta: { traceId: "abc" } },
    });
  });

  it("overrides content, structuredContent and _meta independently, keeping the rest", async () => {
    const server = new McpServer({ name: "mcp-server", version: "1.0.0" });
    const derived = {
      content: [{ type: "text" as const, text: "derived" }],
      _meta: { derived: 1 },
    };
    server.registerTool("content", {}, async () => {
      setRawCallToolResult({ content: [{ type: "text", text: "mine" }] });
      return derived;
    });
    server.registerTool("structured", {}, async () => {
      setRawCallToolResult({ structuredContent: { mine: true } });
      return derived;
    });
    server.registerTool("meta", {}, async () => {
      setRawCallToolResult({ _meta: { mine: true } });
      return derived;
    });
    server.registerTool("twice", {}, async () => {
      setRawCallToolResult({ content: [{ type: "text", text: "first" }] });
      setRawCallToolResult({ _meta: { second: true } });
      return derived;
    });
    server.registerTool("plain", {}, async () => derived);
    const client = await connect(server);
    expect(await client.callTool({ name: "content" })).toEqual({
      content: [{ type: "text", text: "mine" }],
      _meta: { derived: 1 },
    });
    expect(await client.callTool({ name: "structured" })).toEqual({
      ...derived,
      structuredContent: { mine: true },
    });
    expect(await client.callTool({ name: "meta" })).toEqual({ ...derived, _meta: { mine: true } });
    expect(await client.callTool({ name: "twice" })).toEqual({
      ...derived,
      _meta: { second: true },
    });
    expect(await client.callTool({ name: "plain" })).toEqual(derived);
  });

  it("keeps isError from the callback, including the error McpServer makes of a throw", async () => {
    const server = new McpServer({ name: "mcp-server", version: "1.0.0" });
    server.registerTool("fails", {}, async () => {
      setRawCallToolResult({ _meta: { note: "kept" }, isError: false } as never);
      throw new Error("upstream down");
    });
    const client = await connect(server);
    expect(await client.callTool({ name: "fails" })).toEqual({
      content: [{ type: "text", text: "upstream down" }],
      isError: true,
      _meta: { note: "kept" },
    });
  });

  it("keeps two interleaved calls apart: each sees its own request and gets its own override", async () => {
    const server = new McpServer({ name: "mcp-server", version: "1.0.0" });
    const firstStarted = createGate();
    const secondDone = createGate();
    server.registerTool(
      "interleaved",
      { inputSchema: { label: z.string() } },
      async ({ label }) => {
        if (label === "first") {
          firstStarted.open();
          await secondDone.opened; // the second call runs to completion in between
        } else {
          await firstStarted.opened;
        }
        const request = getRawCallToolRequest();
        setRawCallToolResult({
          content: [{ type: "text", text: `override ${label}` }],
          _meta: {
            sawLabel: request?.params.arguments?.["label"],
            sawTrace: request?.params._meta?.["traceId"],
          },
        });
        if (label === "second") setImmediate(secondDone.open);
        return { content: [{ type: "text", text: `derived ${label}` }] };
      },
    );
    const client = await connect(server);
    const [first, second] = await Promise.all([
      client.callTool({
        name: "interleaved",
        arguments: { label: "first" },
        _meta: { traceId: "t1" },
      }),
      client.callTool({
        name: "interleaved",
        arguments: { label: "second" },
        _meta: { traceId: "t2" },
      }),
    ]);
    expect(first).toEqual({
      content: [{ type: "text", text: "override first" }],
      _meta: { sawLabel: "first", sawTrace: "t1" },
    });
    expect(second).toEqual({
      content: [{ type: "text", text: "override second" }],
      _meta: { sawLabel: "second", sawTrace: "t2" },
    });
  });

  it("runs the onResult hook with the raw request on every tools/call and nothing else", async () => {
    const hooked: string[] = [];
    const client = await connect(echoServer(), (request, result) => {
      hooked.push(request.params.name);
      return { ...result, content: [{ type: "text", text: "bounded" }] };
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(
      await client.callTool({ name: "echo", arguments: { label: "x" }, _meta: { traceId: "t" } }),
    ).toEqual({
      content: [{ type: "text", text: "bounded" }],
      _meta: { label: "x", traceId: "t" },
    });
    expect(hooked).toEqual(["echo"]);
  });

  it("runs the hook on the error result McpServer makes for an unknown tool", async () => {
    const hooked: string[] = [];
    const client = await connect(echoServer(), (request, result) => {
      hooked.push(request.params.name);
      return result;
    });
    expect(await client.callTool({ name: "missing" })).toEqual({
      content: [{ type: "text", text: "MCP error -32602: Tool missing not found" }],
      isError: true,
    });
    expect(hooked).toEqual(["missing"]);
  });

  it("leaves the wrapped transport usable as itself: its class, methods and onclose", async () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => "session-1" });
    const wrapped = createResultSdkTransport(transport);
    expect(wrapped).toBeInstanceOf(StreamableHTTPServerTransport);
    expect(wrapped.handleRequest).toBeTypeOf("function");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const wrappedMemory = createResultSdkTransport(serverSide);
    let closed = 0;
    wrappedMemory.onclose = () => {
      closed += 1;
    };
    await wrappedMemory.start();
    await clientSide.close();
    expect(closed).toBe(1);
  });
});
