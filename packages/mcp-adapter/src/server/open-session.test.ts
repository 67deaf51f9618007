import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type BoundedMcp, createBoundedMcp } from "./create-bounded-mcp.js";

const AS_SENT = z.looseObject({});
const ITEMS_TOOL: Tool = {
  name: "items",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { items: { type: "array" } }, required: ["items"] },
};
const items = Array.from({ length: 2_000 }, (_, index) => ({ id: index, pad: "x".repeat(40) }));

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * A low-level SDK Server with no handler of its own, routing every request through one adapter
 * session as the relay does, and a real Client connected to it. `calls` records what `next` got.
 */
async function connectRouted(bounded: BoundedMcp) {
  const server = new Server(
    { name: "routed", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  const listed: Tool[] = [ITEMS_TOOL];
  const calls: unknown[] = [];
  const session = bounded.openSession({ listTools: async () => listed });
  server.fallbackRequestHandler = async (request, extra) => {
    const firstPage = (request.params as { cursor?: unknown } | undefined)?.cursor === undefined;
    if (request.method === "tools/list") {
      return { tools: session.advertiseTools(listed, { firstPage }) };
    }
    if (request.method === "tools/call") {
      return session.runToolCall(request, extra, async (parsed) => {
        calls.push(parsed);
        const structuredContent = { items };
        return {
          content: [{ type: "text", text: JSON.stringify(structuredContent) }],
          structuredContent,
        } satisfies CallToolResult;
      });
    }
    if (request.method === "resources/templates/list") {
      return { resourceTemplates: session.advertiseResourceTemplates([], { firstPage }) };
    }
    if (request.method === "resources/read") {
      const uri = (request.params as { uri: string }).uri;
      return session.readResource(
        uri,
        extra,
        uri.startsWith("other://")
          ? async () => ({ contents: [{ uri, text: "other" }] })
          : undefined,
      );
    }
    throw new Error(`unexpected ${request.method}`);
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "session-test", version: "1.0.0" });
  await client.connect(clientSide);
  cleanup.push(() => client.close());
  return { client, calls };
}

function adapter(): BoundedMcp {
  const bounded = createBoundedMcp({ environment: {}, keys: `test:${"ef".repeat(32)}` });
  cleanup.push(() => bounded.dispose());
  return bounded;
}

describe("bounded.openSession (the adapter's answers for code that owns its Server)", () => {
  it("advertises rewritten outputSchemas with the query tool on the first page only", async () => {
    const bounded = adapter();
    const { client } = await connectRouted(bounded);
    const first = await client.request({ method: "tools/list", params: {} }, AS_SENT);
    const next = await client.request({ method: "tools/list", params: { cursor: "2" } }, AS_SENT);
    const tools = (first as { tools: Tool[] }).tools;
    expect(tools.map((tool) => tool.name)).toEqual(["items", QUERY_TOOL_NAME]);
    expect(tools[0]?.outputSchema?.anyOf).toHaveLength(2);
    expect(tools[1]).toEqual(bounded.queryTool);
    expect((next as { tools: Tool[] }).tools.map((tool) => tool.name)).toEqual(["items"]);
  });

  it("bounds what next returns, parsed request in, and answers the query tool on the artifact", async () => {
    const bounded = adapter();
    const { client, calls } = await connectRouted(bounded);
    const result = (await client.callTool({
      name: "items",
      arguments: { page: 1 },
    })) as CallToolResult;
    expect(calls).toEqual([
      { method: "tools/call", params: { name: "items", arguments: { page: 1 } } },
    ]);
    const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
    const query = (await client.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId: envelope.responseMeta.artifact.id, responsePath: "/items/1" },
    })) as CallToolResult;
    expect(query.structuredContent).toMatchObject({ response: { id: 1 } });
    expect(calls).toHaveLength(1);
    expect(bounded.stats().totals).toMatchObject({ calls: 1, boundedCalls: 1 });
  });

  it("fails a malformed tools/call with the SDK schema's error, before next runs", async () => {
    const { client, calls } = await connectRouted(adapter());
    await expect(
      client.request({ method: "tools/call", params: { name: 42 } } as never, AS_SENT),
    ).rejects.toMatchObject({ code: -32603 });
    expect(calls).toEqual([]);
  });

  it("forwardToolCall: a small result answered synchronously, a large one bounded, as runToolCall", async () => {
    const bounded = adapter();
    const session = bounded.openSession({ listTools: async () => [ITEMS_TOOL] });
    session.advertiseTools([ITEMS_TOOL], { firstPage: true });
    const extra = { sessionId: "s1", requestId: 1 } as never;
    const raw = { method: "tools/call", params: { name: "items", arguments: { page: 1 } } };
    // structuredContent as the relay's stdio transport hands it over, its received text attached.
    const received = Object.defineProperty(
      { items: [] },
      Symbol.for("@bounded-mcp/received-json"),
      {
        value: () => '{"items":[]}',
      },
    );
    const small: CallToolResult = {
      content: [{ type: "text", text: "{}" }],
      structuredContent: received,
    };
    const forwarded = session.forwardToolCall(raw, extra);
    // The same object, not a promise: the caller can write it in the same turn.
    expect(forwarded?.finish(small)).toBe(small);
    const structuredContent = { items };
    const large = (await session.forwardToolCall(raw, extra)?.finish({
      content: [{ type: "text", text: "[items]" }],
      structuredContent,
    })) as CallToolResult;
    BoundedEnvelopeSchema.parse(large.structuredContent);
    // Not a CallToolResult: the isError result runToolCall answers, also synchronously.
    const refused = session.forwardToolCall(raw, extra)?.finish({ content: "nope" });
    expect(refused).toMatchObject({ isError: true });
    // An unknown tool's outputSchema is looked up first: a promise, then the same result.
    const unknown = session.forwardToolCall(
      { method: "tools/call", params: { name: "other" } },
      extra,
    );
    const later = unknown?.finish(small);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(small);
    expect(bounded.stats().totals).toMatchObject({ calls: 3, boundedCalls: 1 });
  });

  it("forwardToolCall leaves to runToolCall what it answers itself, and throws what it rejects with", () => {
    const session = adapter().openSession({ listTools: async () => [] });
    const extra = {} as never;
    const leftToRunToolCall = [
      { method: "tools/call", params: { name: QUERY_TOOL_NAME, arguments: {} } },
      { method: "tools/call", params: { name: "items", arguments: [1] } },
      { method: "tools/call", params: { name: "items", task: { ttl: 1_000 } } },
      { method: "tools/call", params: { name: 42 } },
      { method: "tools/list", params: {} },
    ];
    for (const raw of leftToRunToolCall)
      expect(session.forwardToolCall(raw, extra)).toBeUndefined();
    expect(() =>
      session.forwardToolCall({ method: "tools/call", params: { name: "items", _meta: 5 } }, extra),
    ).toThrow(/expected object|Invalid/);
  });

  it("adds the descriptor template and answers reads: artifact URIs here, others through next", async () => {
    const bounded = adapter();
    const { client } = await connectRouted(bounded);
    expect(await client.listResourceTemplates()).toEqual({
      resourceTemplates: [bounded.descriptorTemplate],
    });
    expect(await client.readResource({ uri: "other://x" })).toEqual({
      contents: [{ uri: "other://x", text: "other" }],
    });
    await expect(
      client.readResource({ uri: "artifact://bounded-mcp/unknown" }),
    ).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource({ uri: "file:///nowhere" })).rejects.toMatchObject({
      code: -32002,
    });
  });
});
