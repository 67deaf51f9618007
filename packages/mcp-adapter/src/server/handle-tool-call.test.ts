import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { getRawCallToolRequest, setRawCallToolResult } from "../result-sdk/call-context.js";
import { type BoundedMcp, createBoundedMcp } from "./create-bounded-mcp.js";
import type { RunToolCallOptions } from "./open-session.js";

const STRICT_TOOL: Tool = {
  name: "strict",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
};
const big = { items: Array.from({ length: 2_000 }, (_, id) => ({ id, pad: "x".repeat(40) })) };

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * A real Server routing tools/call through one adapter session with `options`, and a real
 * Client; `next` answers by tool name and records what the result SDK showed it.
 */
async function connect(bounded: BoundedMcp, options: RunToolCallOptions | undefined) {
  const seen: { request: unknown; overrode: boolean }[] = [];
  const server = new Server({ name: "t", version: "1.0.0" }, { capabilities: { tools: {} } });
  const session = bounded.openSession({ listTools: async () => [STRICT_TOOL] });
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method === "tools/list") {
      return { tools: session.advertiseTools([STRICT_TOOL], { firstPage: true }) };
    }
    return session.runToolCall(
      request,
      extra,
      async (parsed) => {
        const overrode = setRawCallToolResult({ content: [{ type: "text", text: "overridden" }] });
        seen.push({ request: getRawCallToolRequest(), overrode });
        if (parsed.params.name === "big") {
          return { content: [{ type: "text", text: JSON.stringify(big) }], structuredContent: big };
        }
        if (parsed.params.name === "strict") return { content: [], structuredContent: { n: "x" } };
        return { content: [{ type: "text", text: "small" }] } satisfies CallToolResult;
      },
      options,
    );
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "c", version: "1.0.0" });
  await client.connect(clientSide);
  cleanup.push(() => client.close());
  return { client, seen };
}

describe("handleToolCall without the result SDK (resultSdk: false)", () => {
  it("runs next with no call context, and still bounds, enforces and refuses as with one", async () => {
    const bounded = createBoundedMcp({ environment: {} });
    cleanup.push(() => bounded.dispose());
    const without = await connect(bounded, { resultSdk: false });
    const withSdk = await connect(bounded, undefined);

    expect(await without.client.callTool({ name: "small" })).toEqual({
      content: [{ type: "text", text: "small" }],
    });
    expect(without.seen).toEqual([{ request: null, overrode: false }]);
    // The default keeps the result SDK: the request is seen and the override applied.
    expect(await withSdk.client.callTool({ name: "small" })).toEqual({
      content: [{ type: "text", text: "overridden" }],
    });
    expect(withSdk.seen[0]?.overrode).toBe(true);

    const bigResult = await without.client.callTool({ name: "big" });
    expect(BoundedEnvelopeSchema.safeParse(bigResult.structuredContent).success).toBe(true);
    await without.client.listTools();
    const strict = await without.client.callTool({ name: "strict" });
    expect(strict.isError).toBe(true);
    // Counted per tool as with the result SDK (the bounded call by the tool's own name).
    expect(bounded.stats().tools).toMatchObject({
      small: { calls: 2, boundedCalls: 0 },
      big: { calls: 1, boundedCalls: 1 },
      strict: { calls: 1 },
    });
  });
});
