import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient } from "../result-sdk/test-support/connect-client.js";
import { createRecordingLogger } from "../testing/recording-logger.js";
import { createOutputSchemaPolicy, type OutputSchemaPolicy } from "./output-schema-policy.js";
import { BOUNDED_ENVELOPE, BOUNDED_ERROR } from "./test-support/bounded-fixtures.js";

/** n8n-style schema: zod output with a nested $defs that Ajv cannot resolve where it sits. */
const NODE_LIST_SCHEMA: Tool["outputSchema"] = {
  type: "object",
  properties: {
    nodes: { type: "array", items: { $ref: "#/$defs/Node" } },
    total: { type: "integer" },
  },
  required: ["nodes", "total"],
  $defs: {
    Node: {
      type: "object",
      properties: { name: { type: "string" }, meta: { $ref: "#/$defs/Meta" } },
      required: ["name"],
      $defs: { Meta: { type: "object", properties: { version: { type: "number" } } } },
    },
  },
};

const SIMPLE_SCHEMA: Tool["outputSchema"] = {
  type: "object",
  properties: { total: { type: "integer" } },
  required: ["total"],
};

const bounded = (structuredContent: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(structuredContent) }],
  structuredContent,
  ...(isError ? { isError: true } : {}),
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A real low-level Server with one tool `nodes` advertising `outputSchema` (through `policy`
 * when given) and answering `result` (through policy.enforce when given).
 */
async function serve(options: {
  outputSchema: Tool["outputSchema"];
  result: CallToolResult;
  policy?: OutputSchemaPolicy;
}) {
  const tool: Tool = {
    name: "nodes",
    inputSchema: { type: "object" },
    outputSchema: options.outputSchema,
  };
  const server = new Server(
    { name: "upstream", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [options.policy ? options.policy.advertise(tool) : tool],
  }));
  server.setRequestHandler(CallToolRequestSchema, () =>
    options.policy ? options.policy.enforce(tool, options.result) : options.result,
  );
  const connection = await connectClient(server);
  closers.push(connection.close);
  return connection.client;
}

describe("the real SDK Client against a tool with an outputSchema", () => {
  it("throws on a bounded envelope when only the original schema is advertised", async () => {
    const client = await serve({ outputSchema: SIMPLE_SCHEMA, result: bounded(BOUNDED_ENVELOPE) });
    await client.listTools();
    await expect(client.callTool({ name: "nodes" })).rejects.toThrow(
      /Structured content does not match the tool's output schema: data must have required property 'total'/,
    );
  });

  it("throws on a bounded error (isError) when only the original schema is advertised", async () => {
    const client = await serve({
      outputSchema: SIMPLE_SCHEMA,
      result: bounded(BOUNDED_ERROR, true),
    });
    await client.listTools();
    await expect(client.callTool({ name: "nodes" })).rejects.toThrow(
      /Structured content does not match the tool's output schema/,
    );
  });

  it("cannot even list a tool whose outputSchema has a nested $defs", async () => {
    const client = await serve({ outputSchema: NODE_LIST_SCHEMA, result: bounded({}) });
    await expect(client.listTools()).rejects.toThrow(/can't resolve reference #\/\$defs\/Meta/);
  });

  it("accepts the bounded envelope and the bounded error with the rewritten schema", async () => {
    const policy = createOutputSchemaPolicy();
    for (const [result, isError] of [
      [BOUNDED_ENVELOPE, false],
      [BOUNDED_ERROR, true],
    ] as const) {
      const client = await serve({
        outputSchema: NODE_LIST_SCHEMA,
        result: bounded(result, isError),
        policy,
      });
      const { tools } = await client.listTools();
      expect(tools[0]?.outputSchema?.["anyOf"]).toHaveLength(2);
      expect(await client.callTool({ name: "nodes" })).toEqual(bounded(result, isError));
    }
  });

  it("accepts the tool's own conforming result with the rewritten schema", async () => {
    const own = { nodes: [{ name: "Notion", meta: { version: 2 } }], total: 1 };
    const client = await serve({
      outputSchema: NODE_LIST_SCHEMA,
      result: bounded(own),
      policy: createOutputSchemaPolicy(),
    });
    await client.listTools();
    expect(await client.callTool({ name: "nodes" })).toEqual(bounded(own));
  });

  it("turns a non-conforming result into a diagnostic error naming the failing path, which the client accepts", async () => {
    const logger = createRecordingLogger();
    const client = await serve({
      outputSchema: NODE_LIST_SCHEMA,
      result: { ...bounded({ nodes: [{ name: 7 }], total: "1" }), _meta: { trace: "t-1" } },
      policy: createOutputSchemaPolicy({ logger }),
    });
    await client.listTools();
    const problem =
      'returned structuredContent that does not match its outputSchema at "/nodes/0/name": must be string; at "/total": must be integer';
    expect(await client.callTool({ name: "nodes" })).toEqual({
      isError: true,
      content: [{ type: "text", text: `bounded-mcp: tool "nodes" ${problem}` }],
      _meta: { trace: "t-1" },
    });
    expect(logger.records).toEqual([
      { level: "warn", message: `tool "nodes" ${problem}`, fields: { tool: "nodes" } },
    ]);
  });

  it("turns a missing structuredContent into a diagnostic error instead of a client exception", async () => {
    const client = await serve({
      outputSchema: SIMPLE_SCHEMA,
      result: { content: [{ type: "text", text: '{"total":1}' }] },
      policy: createOutputSchemaPolicy(),
    });
    await client.listTools();
    expect(await client.callTool({ name: "nodes" })).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: 'bounded-mcp: tool "nodes" advertises an outputSchema but returned no structuredContent',
        },
      ],
    });
  });

  it("drops the structuredContent of an error result that the client would reject, keeping its text", async () => {
    const client = await serve({
      outputSchema: SIMPLE_SCHEMA,
      result: bounded({ message: "upstream failed" }, true),
      policy: createOutputSchemaPolicy(),
    });
    await client.listTools();
    expect(await client.callTool({ name: "nodes" })).toEqual({
      isError: true,
      content: [{ type: "text", text: '{"message":"upstream failed"}' }],
    });
  });

  it("lists no outputSchema and strips structuredContent when both are turned off for the tool", async () => {
    const client = await serve({
      outputSchema: SIMPLE_SCHEMA,
      result: bounded({ whatever: true }),
      policy: createOutputSchemaPolicy({
        tools: { nodes: { includeOutputSchema: false, includeStructuredContent: false } },
      }),
    });
    const { tools } = await client.listTools();
    expect(tools[0]).toEqual({ name: "nodes", inputSchema: { type: "object" } });
    expect(await client.callTool({ name: "nodes" })).toEqual({
      content: [{ type: "text", text: '{"whatever":true}' }],
    });
  });
});
