import { PassThrough } from "node:stream";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import {
  type ExactNumber,
  exactLiteral,
  isExactNumber,
  stringifyExact,
} from "@bounded-mcp/query-core";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createLinearStdioServerTransport } from "./linear-stdio-server-transport.js";

const MIB = 1024 * 1024;

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const transport of opened.splice(0)) await transport.close();
});

/** A started transport over in-process streams; `received` and `written` collect both ways. */
async function open(limit?: number | { exactToolArguments: boolean }) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const logger = createRecordingLogger();
  const transport = createLinearStdioServerTransport({
    stdin,
    stdout,
    logger,
    ...(typeof limit === "number" ? { maxMessageBytes: limit } : (limit ?? {})),
  });
  opened.push(transport);
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error);
  const written: unknown[] = [];
  let pending = "";
  stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) written.push(JSON.parse(line));
  });
  await transport.start();
  /** Writes `text` as one line in chunks of at most 64 KiB, as a pipe delivers it. */
  const writeLine = async (text: string) => {
    const bytes = Buffer.from(`${text}\n`);
    for (let start = 0; start < bytes.length; start += 64 * 1024) {
      stdin.write(bytes.subarray(start, start + 64 * 1024));
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { transport, stdin, received, written, errors, logger, writeLine };
}

/** A tools/call request as the SDK's Client serializes it: `{method, params, jsonrpc, id}`. */
function sdkRequest(id: number, text: string): string {
  return JSON.stringify({
    method: "tools/call",
    params: { name: "echo", arguments: { text } },
    jsonrpc: "2.0",
    id,
  });
}

describe("createLinearStdioServerTransport", () => {
  it("reads a 10.5 MiB request line whole (the SDK's transport stops at 10 MiB) and the next one", async () => {
    const { received, writeLine } = await open();
    const big = "x".repeat(10.5 * MIB);
    await writeLine(sdkRequest(2, big));
    await writeLine(sdkRequest(3, "small"));
    expect(received).toEqual([
      {
        method: "tools/call",
        params: { name: "echo", arguments: { text: big } },
        jsonrpc: "2.0",
        id: 2,
      },
      {
        method: "tools/call",
        params: { name: "echo", arguments: { text: "small" } },
        jsonrpc: "2.0",
        id: 3,
      },
    ]);
  });

  it("answers a request over the cap with a JSON-RPC error for its id (read from the end) and keeps reading", async () => {
    const { received, written, writeLine } = await open(1024);
    const line = sdkRequest(7, "y".repeat(4096));
    await writeLine(line);
    await writeLine(sdkRequest(8, "small"));
    expect(written).toMatchInlineSnapshot(`
      [
        {
          "error": {
            "code": -32600,
            "data": {
              "byteLength": ${Buffer.byteLength(line)},
              "limit": 1024,
            },
            "message": "The request is ${Buffer.byteLength(line)} bytes, over this server's limit of 1024 bytes; it was dropped unread. Send smaller arguments.",
          },
          "id": 7,
          "jsonrpc": "2.0",
        },
      ]
    `);
    expect(received.map((message) => ("id" in message ? message.id : undefined))).toEqual([8]);
  });

  it("reads the id of an oversized request from the line's start when it comes first", async () => {
    const { written, writeLine } = await open(1024);
    await writeLine(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "first",
        method: "tools/call",
        params: { a: "z".repeat(4096), id: 9 },
      }),
    );
    expect(written).toMatchObject([{ jsonrpc: "2.0", id: "first", error: { code: -32600 } }]);
  });

  it("drops an oversized message without a readable id with a log line, and keeps reading", async () => {
    const { received, written, logger, writeLine } = await open(1024);
    const notification = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { data: "n".repeat(4096), id: 4 },
    });
    await writeLine(notification);
    await writeLine(sdkRequest(5, "small"));
    expect(written).toEqual([]);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: "the client sent a message over the byte cap without a readable id; dropped",
        fields: { byteLength: Buffer.byteLength(notification), limit: 1024, kind: "request" },
      },
    ]);
    expect(received.map((message) => ("id" in message ? message.id : undefined))).toEqual([5]);
  });

  it("hands an oversized response of the client on as an error response for its id, so the request waiting for it fails", async () => {
    const { received, writeLine } = await open(1024);
    const response = JSON.stringify({
      result: { content: "r".repeat(4096) },
      jsonrpc: "2.0",
      id: 0,
    });
    await writeLine(response);
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        id: 0,
        error: {
          code: -32603,
          message: `The client's response is ${Buffer.byteLength(response)} bytes, over this server's limit of 1024 bytes; it was dropped unread.`,
          data: { byteLength: Buffer.byteLength(response), limit: 1024 },
        },
      },
    ]);
  });

  it("reports a line that is not JSON-RPC to onerror and reads on", async () => {
    const { received, errors, writeLine } = await open();
    await writeLine("not json");
    await writeLine(sdkRequest(6, "small"));
    expect(errors).toHaveLength(1);
    expect(received).toHaveLength(1);
  });

  it("stops reading once closed and refuses to send", async () => {
    const { transport, stdin, received } = await open();
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.close();
    stdin.write(`${sdkRequest(1, "late")}\n`);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect({ closed, received }).toEqual({ closed: true, received: [] });
    await expect(transport.send({ jsonrpc: "2.0", id: 1, result: {} })).rejects.toThrow(
      "the stdio server transport is closed",
    );
  });
});

describe("createLinearStdioServerTransport, exact query arguments (SPEC.md §10)", () => {
  const queryCall = (name: string) =>
    `{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"${name}","arguments":{"artifactId":"a","pageSize":-0,"filters":[{"path":"/id","value":12345678901234567890},{"anyOf":[{"path":"/n","op":"in","value":[1e400,-0]},{"path":"/m","value":1}]}]}}}`;

  it("hands on the filter values of a query call as ExactNumbers, and only those", async () => {
    const { received, writeLine } = await open();
    await writeLine(queryCall("query_response_artifact"));
    const message = received[0] as unknown as {
      id: unknown;
      params: { arguments: { pageSize: unknown; filters: Record<string, unknown>[] } };
    };
    const { filters, pageSize } = message.params.arguments;
    expect(isExactNumber(filters[0]?.["value"])).toBe(true);
    expect(exactLiteral(filters[0]?.["value"] as ExactNumber)).toBe("12345678901234567890");
    const anyOf = (filters[1] as Record<string, unknown>)["anyOf"] as Record<string, unknown>[];
    const inner = (anyOf[0] as Record<string, unknown>)["value"] as unknown[];
    expect(inner.map((value) => exactLiteral(value as ExactNumber))).toEqual(["1e400", "-0"]);
    // Everything outside the filters is what JSON.parse made.
    expect(message.id).toBe(12345678901234567000);
    expect(Object.is(pageSize, -0)).toBe(true);
  });

  it("leaves another tool's arguments as JSON.parse made them by default", async () => {
    const { received, writeLine } = await open();
    await writeLine(queryCall("echo"));
    const message = received[0] as unknown as {
      params: { arguments: { filters: Record<string, unknown>[] } };
    };
    expect(message.params.arguments.filters[0]?.["value"]).toBe(12345678901234567000);
  });

  it("reads another tool's arguments exactly with exactToolArguments (a relay: serveStdio)", async () => {
    const { received, writeLine } = await open({ exactToolArguments: true });
    await writeLine(queryCall("echo"));
    const message = received[0] as unknown as {
      params: { arguments: { filters: Record<string, unknown>[] } };
    };
    const value = message.params.arguments.filters[0]?.["value"];
    expect([typeof value, JSON.stringify(value), stringifyExact(value)?.text]).toEqual([
      "object",
      "12345678901234567000",
      "12345678901234567890",
    ]);
  });
});
