import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { type Connection, connect, createTestAdapter } from "./support/harness.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

/** A server that takes task-augmented tools/call (without it the SDK refuses them first). */
const TASK_CAPABILITIES = { tasks: { requests: { tools: { call: {} } } } };

const open: { bounded: BoundedMcp; connection: Connection }[] = [];
afterEach(async () => {
  for (const { bounded, connection } of open.splice(0)) {
    await connection.close();
    await bounded.dispose();
  }
});

/** Tools the author was asked to run (none must be: the adapter answers these calls). */
const called: string[] = [];

async function lowLevel(): Promise<Connection> {
  const bounded = createTestAdapter();
  const server = new Server(
    { name: "tasks", version: "1.0.0" },
    { capabilities: { tools: {}, ...TASK_CAPABILITIES }, taskStore: new InMemoryTaskStore() },
  );
  bounded.attach(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "echo", inputSchema: { type: "object" as const } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    called.push(request.params.name);
    return { content: [] };
  });
  const connection = await connect(server);
  open.push({ bounded, connection });
  return connection;
}

async function mcpServer(): Promise<Connection> {
  const bounded = createTestAdapter();
  const server = new McpServer(
    { name: "tasks", version: "1.0.0" },
    { capabilities: TASK_CAPABILITIES, taskStore: new InMemoryTaskStore() },
  );
  bounded.attach(server);
  server.registerTool("echo", { inputSchema: { keep: z.number().optional() } }, async () => {
    called.push("echo");
    return { content: [] };
  });
  const connection = await connect(server.server);
  open.push({ bounded, connection });
  return connection;
}

/** A task-augmented tools/call with its arguments sent as given. */
function taskCall(connection: Connection, name: string, argumentsValue: unknown) {
  return connection.client.request(
    {
      method: "tools/call",
      params: { name, arguments: argumentsValue, task: { ttl: 60_000 } },
    } as never,
    AS_SENT,
  );
}

describe.each([
  ["a low-level Server", lowLevel],
  ["an McpServer", mcpServer],
])("a task-augmented tools/call with arguments the adapter cannot use, on %s", (_, start) => {
  it.each([
    ["an array", []],
    ["a string", "x"],
    ["a number", 42],
    ["null", null],
  ])(
    "answers non-object query arguments (%s) with the INVALID_RESPONSE_CONTROLS envelope (the SDK failed it with -32602 Invalid task creation result)",
    async (_, value) => {
      const connection = await start();
      const result = (await taskCall(connection, QUERY_TOOL_NAME, value)) as {
        isError: boolean;
        structuredContent: { response: { error: { code: string } } };
      };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.response.error.code).toBe("INVALID_RESPONSE_CONTROLS");
    },
  );

  it("answers query arguments sent as an array with the same whole envelope as the plain call", async () => {
    const connection = await start();
    const plain = await connection.client.request(
      { method: "tools/call", params: { name: QUERY_TOOL_NAME, arguments: [] } } as never,
      AS_SENT,
    );
    expect(await taskCall(connection, QUERY_TOOL_NAME, [])).toEqual(plain);
  });

  it.each([
    [
      "a number",
      42,
      "are a number, not a JSON object; send the arguments as an object of named values",
    ],
    ["null", null, "are null, not a JSON object; send the arguments as an object of named values"],
  ])(
    "answers an author's tool called with non-object arguments (%s) with an error result naming the problem, without calling it",
    async (_, value, problem) => {
      const connection = await start();
      called.length = 0;
      expect(await taskCall(connection, "echo", value)).toEqual({
        content: [
          {
            type: "text",
            text: `bounded-mcp: tool "echo" was called with arguments that ${problem}`,
          },
        ],
        isError: true,
      });
      expect(called).toEqual([]);
    },
  );

  it("answers an own __proto__ argument with an error result, without calling the tool", async () => {
    const connection = await start();
    called.length = 0;
    const result = (await taskCall(
      connection,
      "echo",
      JSON.parse('{"__proto__":{"admin":true}}'),
    )) as { isError: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('an argument named "__proto__"');
    expect(called).toEqual([]);
  });
});
