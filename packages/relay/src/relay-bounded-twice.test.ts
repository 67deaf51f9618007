import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp, rewriteOutputSchema } from "@bounded-mcp/mcp-adapter";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { inMemoryUpstream, startRelay } from "./test-support/start-relay.js";

const KEYS = `test:${"cd".repeat(32)}`;
const ITEMS_SCHEMA = {
  type: "object",
  properties: { items: { type: "array", items: { $ref: "#/$defs/Item" } } },
  required: ["items"],
  $defs: { Item: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
};
const items = Array.from({ length: 20_000 }, (_, index) => ({
  id: `item-${index}`,
  pad: "x".repeat(40),
}));

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function adapter(): BoundedMcp {
  const bounded = createBoundedMcp({ keys: KEYS, environment: {} });
  cleanup.push(() => bounded.dispose());
  return bounded;
}

/**
 * A server author's server that bounds its own results (boundResult in its handler) and lists its
 * outputSchema already rewritten, as README "outputSchema handling" describes.
 */
function createBoundedUpstream(inner: BoundedMcp): Server {
  const server = new Server(
    { name: "inventory", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "list_items",
        inputSchema: { type: "object" as const },
        outputSchema: rewriteOutputSchema(ITEMS_SCHEMA) as { type: "object" },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    const structuredContent = { items };
    const result: CallToolResult = {
      content: [{ type: "text", text: JSON.stringify(structuredContent) }],
      structuredContent,
    };
    return inner.boundResult(result, { ...extra, toolName: "list_items" });
  });
  return server;
}

describe("a bounded server behind a bounded relay", () => {
  it("lists its rewritten outputSchema once, not wrapped again, and its envelope passes the Client", async () => {
    const inner = adapter();
    const outer = adapter();
    const relay = await startRelay({
      bounded: outer,
      upstream: inMemoryUpstream("inventory", () => createBoundedUpstream(inner)),
    });
    cleanup.push(() => relay.close());
    const client = relay.downstream;

    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.outputSchema])).toEqual([
      ["list_items", rewriteOutputSchema(ITEMS_SCHEMA)],
      ["query_response_artifact", outer.queryTool.outputSchema],
    ]);

    const result = (await client.callTool({ name: "list_items", arguments: {} })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
    expect(envelope.responseMeta.artifact.uri).toMatch(/^artifact:\/\/bounded-mcp\//);
    expect(inner.stats().totals).toMatchObject({ calls: 1, boundedCalls: 1 });
    expect(outer.stats().totals).toMatchObject({ calls: 1, boundedCalls: 0 });
  });
});
