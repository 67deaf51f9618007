import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import {
  type Connection,
  connect,
  connectLowLevelServer,
  createTestAdapter,
} from "./support/harness.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

const open: { bounded: BoundedMcp; connection: Connection }[] = [];
afterEach(async () => {
  for (const { bounded, connection } of open.splice(0)) {
    await connection.close();
    await bounded.dispose();
  }
});

const echo = (value: unknown) => ({
  content: [{ type: "text" as const, text: JSON.stringify(value) }],
});

/** A low-level Server with an `echo` tool, attached, and a real Client over InMemoryTransport. */
async function lowLevel(): Promise<Connection> {
  const bounded = createTestAdapter();
  const connection = await connectLowLevelServer(bounded, { echo: { result: echo } });
  open.push({ bounded, connection });
  return connection;
}

/** An McpServer with an `echo` tool, attached, and a real Client over InMemoryTransport. */
async function mcpServer(): Promise<Connection> {
  const bounded = createTestAdapter();
  const server = new McpServer({ name: "fixture", version: "1.0.0" });
  bounded.attach(server);
  server.registerTool("echo", { inputSchema: { keep: z.number().optional() } }, async (value) =>
    echo(value),
  );
  const connection = await connect(server.server);
  open.push({ bounded, connection });
  return connection;
}

/** One tools/call with its arguments sent as given (InMemoryTransport passes the object itself). */
function call(connection: Connection, name: string, argumentsValue: unknown) {
  return connection.client.request(
    { method: "tools/call", params: { name, arguments: argumentsValue } } as never,
    AS_SENT,
  );
}

describe.each([
  ["a low-level Server", lowLevel],
  ["an McpServer", mcpServer],
])("arguments the adapter cannot use, on %s", (_, start) => {
  it("answers query arguments with an own __proto__ key with an INVALID_RESPONSE_CONTROLS envelope (the SDK's parse dropped it silently)", async () => {
    const connection = await start();
    const value: unknown = JSON.parse('{"artifactId":"abc","__proto__":{"pageSize":1}}');
    const result = (await call(connection, QUERY_TOOL_NAME, value)) as {
      isError: boolean;
      structuredContent: { response: { error: unknown } };
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CONTROLS",
      details: { field: "__proto__" },
    });
  });

  it("answers an author's tool called with an own __proto__ argument with an error result, without calling it (it was called without the key)", async () => {
    const connection = await start();
    const value: unknown = JSON.parse('{"keep":1,"__proto__":{"admin":true}}');
    expect(await call(connection, "echo", value)).toEqual({
      content: [
        {
          type: "text",
          text: 'bounded-mcp: tool "echo" was called with an argument named "__proto__", which cannot be passed on as data (it would be dropped); rename or remove it',
        },
      ],
      isError: true,
    });
  });

  it("still passes ordinary arguments as received", async () => {
    const connection = await start();
    expect(await call(connection, "echo", { keep: 1 })).toEqual(echo({ keep: 1 }));
  });

  // The SDK's Server (1.32) refuses non-object arguments with -32602 before any handler it wraps
  // runs (docs/sdk-notes.md 19); attach registers its tools/call handler past that wrapper.
  it.each([
    ["an array", []],
    ["a string", "x"],
    ["a number", 42],
    ["null", null],
  ])(
    "answers non-object query arguments (%s) with an INVALID_RESPONSE_CONTROLS envelope (the SDK's Server refused them with -32602)",
    async (_, value) => {
      const connection = await start();
      const result = (await call(connection, QUERY_TOOL_NAME, value)) as {
        isError: boolean;
        structuredContent: { response: { error: { code: string } } };
      };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.response.error.code).toBe("INVALID_RESPONSE_CONTROLS");
    },
  );

  it.each([
    ["an array", [], "an array"],
    ["a string", "x", "a string"],
    ["a number", 42, "a number"],
    ["null", null, "null"],
  ])(
    "answers an author's tool called with non-object arguments (%s) with an error result naming the problem, without calling it",
    async (_, value, kind) => {
      const connection = await start();
      expect(await call(connection, "echo", value)).toEqual({
        content: [
          {
            type: "text",
            text: `bounded-mcp: tool "echo" was called with arguments that are ${kind}, not a JSON object; send the arguments as an object of named values`,
          },
        ],
        isError: true,
      });
    },
  );

  it("answers query arguments sent as an array with the whole envelope", async () => {
    const connection = await start();
    expect(await call(connection, QUERY_TOOL_NAME, [])).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "text": "{"artifactId":null,"responsePath":null,"response":{"error":{"code":"INVALID_RESPONSE_CONTROLS","message":"The arguments must be an object of query arguments, at least {artifactId}; call query_response_artifact with responseMeta.artifact.id as artifactId.","details":{"field":"","expected":"an object of query arguments, at least {artifactId}"}}},"responseMeta":{"contractVersion":3,"truncated":false,"complete":false,"truncationReason":null,"returnedCount":0,"totalCount":null,"remainingCount":null,"nextCursor":null,"serializedBytes":555,"warning":null}}",
            "type": "text",
          },
        ],
        "isError": true,
        "structuredContent": {
          "artifactId": null,
          "response": {
            "error": {
              "code": "INVALID_RESPONSE_CONTROLS",
              "details": {
                "expected": "an object of query arguments, at least {artifactId}",
                "field": "",
              },
              "message": "The arguments must be an object of query arguments, at least {artifactId}; call query_response_artifact with responseMeta.artifact.id as artifactId.",
            },
          },
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "nextCursor": null,
            "remainingCount": null,
            "returnedCount": 0,
            "serializedBytes": 555,
            "totalCount": null,
            "truncated": false,
            "truncationReason": null,
            "warning": null,
          },
          "responsePath": null,
        },
      }
    `);
  });

  it("still refuses a tools/call whose other params are malformed with the SDK's -32602, also with non-object arguments", async () => {
    const connection = await start();
    const malformed = connection.client.request(
      { method: "tools/call", params: { name: 42, arguments: [] } } as never,
      AS_SENT,
    );
    await expect(malformed).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^MCP error -32602: MCP error -32602: Invalid tools\/call request: \[[\s\S]*"path": \[\s*"params",\s*"name"\s*\][\s\S]*\]$/,
      ),
    });
  });
});
