import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createRecordingLogger, LARGE_PAYLOAD_CHANNEL } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  collectAfterLargeLines,
  createLinearStdioClientTransport,
  type LinearStdioClientTransportOptions,
} from "./linear-stdio-client-transport.js";
import { exposeFullCollection } from "./stdio-process-flags.js";
import {
  FIXTURE_SERVER_PATH,
  RAW_LINE_SERVER_PATH,
  RAW_RESULT_SERVER_PATH,
  SERVER_EVERYTHING_PATH,
} from "./test-support/fixture-paths.js";
import { createPayloadText } from "./test-support/payload.mjs";
import { SPACED_STRUCTURED } from "./test-support/spaced-structured.mjs";

const MEBIBYTE = 1024 * 1024;
const clients: Client[] = [];

async function connectFixture(options: Partial<LinearStdioClientTransportOptions> = {}) {
  const transport = createLinearStdioClientTransport({
    command: process.execPath,
    args: [FIXTURE_SERVER_PATH],
    name: "fixture",
    ...options,
  });
  const client = new Client({ name: "relay-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

function textOf(result: unknown): string {
  const parsed = CallToolResultSchema.parse(result);
  const block = parsed.content[0];
  if (block?.type !== "text") throw new Error("expected a text block");
  return block.text;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("createLinearStdioClientTransport with a real SDK server child", () => {
  it("carries 1 MiB and 30 MiB tool results intact", async () => {
    const { client } = await connectFixture();
    for (const mebibytes of [1, 30]) {
      const result = await client.callTool({ name: "payload", arguments: { mebibytes } });
      expect(textOf(result) === createPayloadText(mebibytes)).toBe(true);
      expect(textOf(result).length).toBeGreaterThanOrEqual(mebibytes * MEBIBYTE);
    }
  }, 60_000);

  it("fails only the call whose result is over the cap, with the bounded ARTIFACT_TOO_LARGE error", async () => {
    const logger = createRecordingLogger();
    const { client, transport } = await connectFixture({ maxMessageBytes: 64 * MEBIBYTE, logger });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const [tooLarge, echoed] = await Promise.all([
      client.callTool({ name: "payload", arguments: { mebibytes: 70 } }),
      client.callTool({ name: "echo", arguments: { text: "beside" } }),
    ]);
    const envelope = (
      tooLarge as unknown as { structuredContent: { responseMeta: { serializedBytes: number } } }
    ).structuredContent;
    const byteLength = envelope.responseMeta.serializedBytes;
    expect(byteLength).toBeGreaterThan(70 * MEBIBYTE);
    expect(tooLarge).toEqual({
      content: [{ type: "text", text: JSON.stringify(envelope) }],
      structuredContent: {
        success: false,
        data: null,
        responseMeta: {
          contractVersion: 3,
          truncated: true,
          complete: false,
          truncationReason: "size_limit",
          serializedBytes: byteLength,
        },
        error: {
          code: "ARTIFACT_TOO_LARGE",
          message: `The result of upstream "fixture" is ${byteLength} bytes, over the relay's message cap of ${64 * MEBIBYTE} bytes (a bounded relay sets it to 1.3 x artifactMaxBytes, room for the JSON-RPC message around a result of artifactMaxBytes); it was dropped unread. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields), or raise artifactMaxBytes.`,
          details: { byteLength, limit: 64 * MEBIBYTE },
        },
        guidance:
          "The result was too large to store and was not returned. Call the tool again with narrower arguments (filters, a smaller limit, one page) so its result gets smaller.",
      },
      isError: true,
    });
    expect(textOf(echoed)).toBe("beside");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "after" } }))).toBe(
      "after",
    );
    expect(errors).toEqual([]);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: 'upstream "fixture" sent a message over the byte cap; it was dropped',
        fields: { upstream: "fixture", byteLength, limit: 64 * MEBIBYTE, method: "tools/call" },
      },
    ]);
  }, 60_000);

  it("delivers every progress notification written just before the result", async () => {
    const { client } = await connectFixture();
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: "progress", arguments: { steps: 3 } },
      CallToolResultSchema,
      { onprogress: (update) => progress.push(update) },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "sent 3 progress notifications" }] });
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it("lets the child see a cancellation", async () => {
    const logger = createRecordingLogger();
    const { client } = await connectFixture({ logger });
    const controller = new AbortController();
    const call = client.callTool({ name: "wait", arguments: {} }, CallToolResultSchema, {
      signal: controller.signal,
    });
    await client.callTool({ name: "echo", arguments: { text: "the wait call is in flight" } });
    controller.abort("no longer needed");
    await expect(call).rejects.toThrow("no longer needed");
    await vi.waitFor(
      () =>
        expect(logger.records).toEqual([
          { level: "info", message: "[upstream] cancelled: no longer needed" },
        ]),
      { timeout: 15_000 },
    );
  });

  it("hands the child's stderr to the logger line by line, prefixed", async () => {
    const logger = createRecordingLogger();
    const { client } = await connectFixture({ logger, stderrPrefix: "[fixture] " });
    await client.callTool({
      name: "stderr",
      arguments: { lines: ["first line", "second ü line"] },
    });
    await vi.waitFor(() => expect(logger.records).toHaveLength(2), { timeout: 15_000 });
    expect(logger.records).toEqual([
      { level: "info", message: "[fixture] first line" },
      { level: "info", message: "[fixture] second ü line" },
    ]);
  });

  it("fails a call in flight when the child dies, naming the upstream and its exit code", async () => {
    const { client, transport } = await connectFixture();
    const closed = new Promise<void>((resolve) => {
      client.onclose = resolve;
    });
    const failure = await client.callTool({ name: "crash", arguments: { code: 3 } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: -32000,
      message:
        'MCP error -32000: upstream "fixture" exited with code 3 while tools/call was in flight',
      data: { upstream: "fixture", exitCode: 3, signal: null },
    });
    await closed;
    expect(transport.exit).toEqual({ code: 3, signal: null });
  });

  it("rejects sending after the child has exited", async () => {
    const { client, transport } = await connectFixture();
    await client.close();
    await expect(transport.send({ jsonrpc: "2.0", id: 99, method: "ping" })).rejects.toThrow(
      'upstream "fixture" is not connected',
    );
  });

  it("fails a non-tool request over the cap with a JSON-RPC error naming the method", async () => {
    const transport = createLinearStdioClientTransport({
      command: process.execPath,
      args: [RAW_LINE_SERVER_PATH, "1"],
      name: "raw",
      maxMessageBytes: 512 * 1024,
    });
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(transport);
    const failure = await client.listTools().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    const byteLength =
      Buffer.byteLength(
        JSON.stringify({ content: [{ type: "text", text: createPayloadText(1) }] }),
      ) + '{"result":,"jsonrpc":"2.0","id":1}'.length;
    expect(failure).toMatchObject({
      code: -32603,
      message: `MCP error -32603: The tools/list response of upstream "raw" is ${byteLength} bytes, over the relay's limit of ${512 * 1024} bytes; it was dropped unread.`,
      data: { byteLength, limit: 512 * 1024 },
    });
    const result = (await client.callTool({ name: "any", arguments: {} })) as { isError?: boolean };
    expect(result.isError).toBe(true);
  });

  it("keeps a line buffer after a large result and releases it after bufferIdleMs without one", async () => {
    const connect = async (options: Partial<LinearStdioClientTransportOptions>) => {
      const transport = createLinearStdioClientTransport({
        command: process.execPath,
        args: [RAW_LINE_SERVER_PATH, "1"],
        name: "raw",
        ...options,
      });
      const client = new Client({ name: "relay-test", version: "1.0.0" });
      clients.push(client);
      await client.connect(transport);
      return { client, transport };
    };
    // Retention is checked with an idle time no loaded machine reaches between two calls; release
    // on a second connection whose idle time is short.
    const { client, transport } = await connect({ bufferIdleMs: 600_000 });
    for (let call = 0; call < 2; call += 1) {
      const result = await client.callTool({ name: "any", arguments: {} });
      expect(textOf(result) === createPayloadText(1)).toBe(true);
      // Sized after the line (about 1 MiB of JSON-RPC) plus a quarter.
      expect(transport.lineBufferBytes).toBeGreaterThan(MEBIBYTE);
      expect(transport.lineBufferBytes).toBeLessThan(1.5 * MEBIBYTE);
    }
    const idle = await connect({ bufferIdleMs: 50 });
    const released = await idle.client.callTool({ name: "any", arguments: {} });
    expect(textOf(released) === createPayloadText(1)).toBe(true);
    await vi.waitFor(() => expect(idle.transport.lineBufferBytes).toBe(0), { timeout: 30_000 });
    const none = await connect({ retainedBufferBytes: 0 });
    await none.client.callTool({ name: "any", arguments: {} });
    expect(none.transport.lineBufferBytes).toBe(0);
  });

  it("reports a stdout line that is not JSON-RPC and keeps the connection", async () => {
    const logger = createRecordingLogger();
    const transport = createLinearStdioClientTransport({
      command: process.execPath,
      args: [RAW_LINE_SERVER_PATH, "0.001", "noise"],
      name: "raw",
      logger,
    });
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    clients.push(client);
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    const result = await client.callTool({ name: "any", arguments: {} });
    expect(textOf(result)).toBe(createPayloadText(0.001));
    expect(errors.map((error) => error.name)).toEqual(["SyntaxError"]);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: 'upstream "raw" wrote a line that is not a JSON-RPC message',
        fields: { upstream: "raw", bytes: 19 },
      },
    ]);
  });

  it("reports an oversized message that answers no pending request, and delivers nothing for it", async () => {
    const notification = JSON.stringify({
      method: "notifications/message",
      params: { level: "info", data: "x".repeat(2000) },
      jsonrpc: "2.0",
    });
    const transport = createLinearStdioClientTransport({
      command: process.execPath,
      args: ["-e", `process.stdout.write(${JSON.stringify(`${notification}\n`)})`],
      name: "noisy",
      maxMessageBytes: 1000,
    });
    const errors: Error[] = [];
    const messages: unknown[] = [];
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    await closed;
    expect(messages).toEqual([]);
    expect(errors.map((error) => error.message)).toEqual([
      `upstream "noisy" sent a message of ${notification.length} bytes, over the cap of 1000; it was not an answer to a pending request and was dropped`,
    ]);
  });

  it("rejects start when the command does not exist", async () => {
    const transport = createLinearStdioClientTransport({ command: "/nonexistent/mcp-server" });
    await expect(transport.start()).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("relays server-everything: initialize, tools/list and a tool call", async () => {
    const transport = createLinearStdioClientTransport({
      command: process.execPath,
      args: [SERVER_EVERYTHING_PATH, "stdio"],
      name: "everything",
    });
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe("mcp-servers/everything");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");
    expect(await client.callTool({ name: "echo", arguments: { message: "hello" } })).toEqual({
      content: [{ type: "text", text: "Echo: hello" }],
    });
  });
});

describe("the text a result's structuredContent arrived as", () => {
  it("is sliced from the line on first use and answered the same on every later use", async () => {
    const transport = createLinearStdioClientTransport({
      command: process.execPath,
      args: [RAW_RESULT_SERVER_PATH],
      name: "raw",
    });
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(transport);
    const seen: unknown[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const structured = (message as { result?: { structuredContent?: object } }).result
        ?.structuredContent;
      if (structured !== undefined) seen.push(structured);
      deliver?.(message, extra);
    };
    await client.callTool({ name: "spaced_structured" });
    const [structured] = seen as Array<Record<symbol, unknown>>;
    const attached = structured?.[Symbol.for("@bounded-mcp/received-json")] as () => unknown;
    expect([attached(), attached()]).toEqual([SPACED_STRUCTURED, SPACED_STRUCTURED]);
  });
});

/**
 * A stdio server (node -e) that answers initialize, then every tools/call with one result whose
 * structuredContent holds `mebibytes` MiB of strings (one line), as SDK servers write it.
 */
const STRUCTURED_LINE_SERVER = `
const { createInterface } = require("node:readline");
const mebibytes = Number(process.argv[1]);
const rows = Array.from({ length: Math.ceil((mebibytes * 1024 * 1024) / 100) }, (_, i) => "r" + String(i).padStart(97, "0"));
const result = JSON.stringify({ content: [{ type: "text", text: "rows" }], structuredContent: { rows } });
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const answer = message.method === "initialize"
    ? JSON.stringify({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "structured", version: "1.0.0" } })
    : result;
  process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(message.id) + ',"result":' + answer + "}\\n");
});
`;

describe("the large-payload announcement (diagnostics channel)", () => {
  it("announces a line being read once it passes 1 MiB, once per line, never a small one", async () => {
    const announced: unknown[] = [];
    const listener = (message: unknown) => announced.push(message);
    subscribe(LARGE_PAYLOAD_CHANNEL, listener);
    try {
      const transport = createLinearStdioClientTransport({
        command: process.execPath,
        args: [RAW_LINE_SERVER_PATH, "3"],
        name: "raw",
      });
      const client = new Client({ name: "relay-test", version: "1.0.0" });
      clients.push(client);
      await client.connect(transport);
      expect(announced).toEqual([]);
      await client.callTool({ name: "any", arguments: {} });
      await client.callTool({ name: "any", arguments: {} });
      const small = await connectFixture();
      await small.client.callTool({ name: "echo", arguments: { text: "hi" } });
      expect(announced).toEqual([{ upstream: "raw" }, { upstream: "raw" }]);
    } finally {
      unsubscribe(LARGE_PAYLOAD_CHANNEL, listener);
    }
  }, 60_000);
});

describe("the large-line collection (collectAfterLargeLines)", () => {
  afterEach(() => collectAfterLargeLines(undefined));
  /** The young collections while a 17 MiB line is read: one per 2 MiB of it. */
  const READ_YOUNG = Array.from({ length: 8 }, () => "young");

  /** Connects to `args`, recording the collections and the tool results in the order they came. */
  async function recordedClient(args: string[]) {
    const events: string[] = [];
    const transport = createLinearStdioClientTransport({ command: process.execPath, args });
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ("result" in message && "content" in message.result) events.push("result");
      deliver?.(message, extra);
    };
    return { client, events };
  }

  it("collects fully once per line of 16 Mi characters or more, after the line is parsed and before its message is delivered, young per 2 MiB read and once the line is decoded, never for a small line", async () => {
    const collect = exposeFullCollection();
    expect(collect).toBeTypeOf("function");
    const large = await recordedClient([RAW_LINE_SERVER_PATH, "17"]);
    const small = await recordedClient([RAW_LINE_SERVER_PATH, "1"]);
    let collections = 0;
    collectAfterLargeLines((kind) => {
      collections += 1;
      large.events.push(kind);
      collect?.(kind);
    });
    // The text survives the collections whole (what the adapter then stores and parses).
    const result = await large.client.callTool({ name: "any", arguments: {} });
    expect(textOf(result) === createPayloadText(17)).toBe(true);
    // A young collection per 2 MiB read (the line is over 17 MiB: eight), one once it is decoded
    // (its grown buffer freed before its JSON.parse), then the full one.
    expect(large.events).toEqual([...READ_YOUNG, "young", "full", "result"]);
    expect(textOf(await small.client.callTool({ name: "any", arguments: {} }))).toBe(
      createPayloadText(1),
    );
    expect(collections).toBe(10);
    expect(small.events).toEqual(["result"]);
  }, 60_000);

  it("collects no large line fully whose structuredContent keeps its text (the slice holds the line)", async () => {
    const { client, events } = await recordedClient(["-e", STRUCTURED_LINE_SERVER, "17"]);
    collectAfterLargeLines((kind) => events.push(kind));
    const result = (await client.callTool({ name: "any", arguments: {} })) as {
      structuredContent?: { rows?: string[] };
    };
    expect(result.structuredContent?.rows?.length).toBeGreaterThan(170_000);
    expect(events).toEqual([...READ_YOUNG, "young", "result"]);
  }, 60_000);

  it("delivers the message when the collection throws", async () => {
    const { client, events } = await recordedClient([RAW_LINE_SERVER_PATH, "17"]);
    collectAfterLargeLines((kind) => {
      events.push(kind);
      throw new Error("no collection here");
    });
    const result = await client.callTool({ name: "any", arguments: {} });
    expect(textOf(result) === createPayloadText(17)).toBe(true);
    expect(events).toEqual([...READ_YOUNG, "young", "full", "result"]);
  }, 60_000);
});
