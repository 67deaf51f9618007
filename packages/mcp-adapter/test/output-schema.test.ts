import { BoundedEnvelopeSchema, BoundedErrorSchema } from "@bounded-mcp/contract";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { itemsPayloadOfSize } from "./support/fixtures.js";
import {
  closeAfterEach,
  connect,
  connectLowLevelServer,
  createTestAdapter,
} from "./support/harness.js";

const MiB = 1024 * 1024;
const ITEMS_SCHEMA: { type: "object"; [key: string]: unknown } = {
  type: "object",
  properties: {
    success: { type: "boolean" },
    data: {
      type: "object",
      properties: {
        total: { type: "integer" },
        items: { type: "array", items: { $ref: "#/$defs/item" } },
      },
      required: ["total", "items"],
    },
  },
  required: ["success", "data"],
  $defs: { item: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
};

const payload = itemsPayloadOfSize(MiB);

const track = closeAfterEach();

async function lowLevel(
  result: () => CallToolResult,
  options: Parameters<typeof createTestAdapter>[0] = {},
) {
  const bounded = createTestAdapter(options);
  const connection = await connectLowLevelServer(bounded, {
    typed: { definition: { outputSchema: ITEMS_SCHEMA }, result },
  });
  track(bounded, connection);
  return connection.client;
}

async function mcpServer(options: Parameters<typeof createTestAdapter>[0] = {}) {
  const bounded = createTestAdapter(options);
  const server = new McpServer({ name: "typed", version: "1.0.0" });
  bounded.attach(server);
  server.registerTool(
    "typed",
    {
      outputSchema: {
        success: z.boolean(),
        data: z.object({
          total: z.number(),
          items: z.array(z.object({ id: z.string() }).passthrough()),
        }),
      },
    },
    async () => ({
      content: [{ type: "text", text: "1 MiB of items" }],
      structuredContent: payload,
    }),
  );
  const connection = await connect(server.server);
  track(bounded, connection);
  return connection.client;
}

const structured = () => ({
  content: [{ type: "text" as const, text: "1 MiB of items" }],
  structuredContent: payload,
});

describe("tools with an outputSchema", () => {
  it("lists the schema rewritten to admit the bounded envelope and the bounded error", async () => {
    const client = await lowLevel(structured);
    const { tools } = await client.listTools();
    const schema = tools[0]?.outputSchema as { type: string; anyOf: unknown[] };
    expect(schema.type).toBe("object");
    // The original, then one compact branch that admits both bounded shapes.
    expect(schema.anyOf).toHaveLength(2);
  });

  it("returns a 1 MiB result as an envelope that the SDK Client validates (low-level Server)", async () => {
    const client = await lowLevel(structured);
    const result = await client.callTool({ name: "typed", arguments: {} });
    expect(result.isError).toBeUndefined();
    expect(BoundedEnvelopeSchema.parse(result.structuredContent).responseMeta.serializedBytes).toBe(
      Buffer.byteLength(JSON.stringify(payload)),
    );
  });

  it("returns a 1 MiB result as an envelope that the SDK Client validates (McpServer)", async () => {
    const client = await mcpServer();
    const result = await client.callTool({ name: "typed", arguments: {} });
    expect(result.isError).toBeUndefined();
    BoundedEnvelopeSchema.parse(result.structuredContent);
  });

  it("returns the bounded error of a result over artifactMaxBytes, which the SDK Client validates too", async () => {
    for (const client of [
      await lowLevel(structured, { artifactMaxBytes: MiB / 2 }),
      await mcpServer({ artifactMaxBytes: MiB / 2 }),
    ]) {
      const result = await client.callTool({ name: "typed", arguments: {} });
      expect(result.isError).toBe(true);
      expect(BoundedErrorSchema.parse(result.structuredContent).error.code).toBe(
        "ARTIFACT_TOO_LARGE",
      );
    }
  });

  it("replaces a small result that breaks its schema with a diagnostic without structuredContent", async () => {
    const client = await lowLevel(() => ({
      content: [{ type: "text", text: "{}" }],
      structuredContent: { success: "yes" },
    }));
    const result = await client.callTool({ name: "typed", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([
      { type: "text", text: expect.stringContaining('tool "typed"') },
    ]);
  });
});

describe("per-tool outputSchema options", () => {
  it("drops a tool's outputSchema from tools/list when includeOutputSchema is false for it", async () => {
    const client = await lowLevel(structured, { tools: { typed: { includeOutputSchema: false } } });
    const { tools } = await client.listTools();
    expect(tools[0]).toEqual({ name: "typed", inputSchema: { type: "object" } });
    const result = await client.callTool({ name: "typed", arguments: {} });
    BoundedEnvelopeSchema.parse(result.structuredContent);
  });
});

describe("the query tool on an McpServer", () => {
  it("is listed with the same schemas as on a low-level Server", async () => {
    const fromMcpServer = (await (await mcpServer()).listTools()).tools.find(
      (tool) => tool.name === "query_response_artifact",
    );
    const fromServer = (await (await lowLevel(structured)).listTools()).tools.find(
      (tool) => tool.name === "query_response_artifact",
    );
    expect(fromMcpServer).toEqual({ ...fromServer, execution: { taskSupport: "forbidden" } });
  });

  it("answers {artifact_id} with the contract envelope instead of the SDK's plain-text validation error", async () => {
    const client = await mcpServer();
    const result = await client.callTool({
      name: "query_response_artifact",
      arguments: { artifact_id: "x" },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      response: {
        error: { code: "INVALID_RESPONSE_CONTROLS", details: { suggestedKey: "artifactId" } },
      },
    });
  });
});
