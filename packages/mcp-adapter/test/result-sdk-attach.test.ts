import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { getRawCallToolRequest, setRawCallToolResult } from "../src/index.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import {
  closeAfterEach,
  connect,
  connectLowLevelServer,
  createTestAdapter,
} from "./support/harness.js";

const big = itemsPayloadOfSize(100_000);

const track = closeAfterEach();

describe("the per-call result SDK on attached servers", () => {
  it("gives an McpServer tool its raw request and bounds an oversized override", async () => {
    const bounded = createTestAdapter();
    const server = new McpServer({ name: "sdk", version: "1.0.0" });
    bounded.attach(server);
    const seen: unknown[] = [];
    server.registerTool("echo", { description: "echo" }, async () => {
      seen.push(getRawCallToolRequest()?.params._meta);
      setRawCallToolResult({ content: [{ type: "text", text: JSON.stringify(big) }] });
      return { content: [{ type: "text", text: "small" }] };
    });
    const connection = await connect(server.server);
    track(bounded, connection);
    const result = (await connection.client.callTool({
      name: "echo",
      arguments: {},
      _meta: { traceId: "trace-1" },
    })) as CallToolResult;
    expect(seen).toEqual([{ traceId: "trace-1" }]);
    expect(BoundedEnvelopeSchema.parse(result.structuredContent).responseMeta.serializedBytes).toBe(
      Buffer.byteLength(JSON.stringify(big)),
    );
    expect(getRawCallToolRequest()).toBeNull();
  });

  it("bounds a low-level handler's result once, even when the handler already called boundResult", async () => {
    const bounded = createTestAdapter();
    const connection = await connectLowLevelServer(bounded, {
      fixture: { result: () => jsonTextResult(big) },
    });
    track(bounded, connection);
    const result = (await connection.client.callTool({
      name: "fixture",
      arguments: {},
    })) as CallToolResult;
    BoundedEnvelopeSchema.parse(result.structuredContent);
    expect(bounded.stats().tools.fixture).toMatchObject({ calls: 1, boundedCalls: 1 });
  });
});
