import { fileURLToPath } from "node:url";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger, type RecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { RelayCallEvent } from "./call-observer.js";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import { createLinearStdioClientTransport } from "./linear-stdio-client-transport.js";
import type { ToolHooks } from "./relay-hooks.js";
import { FIXTURE_SERVER_PATH, RAW_RESULT_SERVER_PATH } from "./test-support/fixture-paths.js";
import { recordedStdioUpstream } from "./test-support/start-relay.js";

// The call lane (sdk/call-lane.ts) against the relay's SDK Server path it replaces for plain
// tools/call: two relays over the same kind of stdio child and one adapter, the lane on in one
// (the default) and off in the other (`lane: false`), the same requests from a real SDK Client
// to each; what each relay wrote to its downstream and sent to its upstream is compared as JSON
// text, byte for byte.

const LOOSE = z.looseObject({});
const ERROR_RESPONSE_SERVER = fileURLToPath(
  new URL("./test-support/error-response-server.mjs", import.meta.url),
);

/** Retries an assertion until it passes; generous because the child runs on a loaded machine. */
function eventually<T>(assertion: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(assertion, { timeout: 15_000, interval: 20 });
}

interface Side {
  relay: BoundedRelay;
  client: Client;
  /** Every message the relay wrote to its downstream, as JSON text. */
  wire: string[];
  /** Every message the relay's upstream client sent, in order. */
  sentUpstream: JSONRPCMessage[];
  events: RelayCallEvent[];
  logger: RecordingLogger;
}

const sides: Side[] = [];
let bounded: BoundedMcp;

beforeAll(() => {
  bounded = createBoundedMcp({ environment: {} });
});
afterAll(async () => {
  await bounded.dispose();
});
afterEach(async () => {
  await Promise.all(sides.splice(0).map((side) => side.relay.close()));
});

/** A client connected to the relay over InMemoryTransport, every message it gets kept in `wire`. */
async function connectRecording(relay: BoundedRelay, wire: string[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, sendOptions) => {
    wire.push(JSON.stringify(message));
    return send(message, sendOptions);
  };
  const session = await relay.connect(serverSide);
  const client = new Client({ name: "lane-test", version: "1.0.0" });
  await client.connect(clientSide);
  await session.ready;
  return client;
}

async function startSide(options: {
  lane: boolean;
  args?: string[];
  hooks?: ToolHooks;
  timeout?: number;
  maxTotalTimeout?: number;
}): Promise<Side> {
  const logger = createRecordingLogger();
  const sentUpstream: JSONRPCMessage[] = [];
  const events: RelayCallEvent[] = [];
  const relay = createBoundedRelay({
    bounded,
    upstream: recordedStdioUpstream(
      "fixture",
      options.args ?? [FIXTURE_SERVER_PATH],
      sentUpstream,
      logger,
    ),
    logger,
    lane: options.lane,
    onToolCall: (event) => events.push(event),
    ...(options.hooks === undefined ? {} : { hooks: options.hooks }),
    ...(options.timeout === undefined
      ? {}
      : {
          requestOptions: {
            timeout: options.timeout,
            resetTimeoutOnProgress: true,
            ...(options.maxTotalTimeout === undefined
              ? {}
              : { maxTotalTimeout: options.maxTotalTimeout }),
          },
        }),
  });
  const wire: string[] = [];
  const client = await connectRecording(relay, wire);
  const side = { relay, client, wire, sentUpstream, events, logger };
  sides.push(side);
  return side;
}

/** Both relays, lane on first. */
async function startBoth(
  options: Omit<Parameters<typeof startSide>[0], "lane"> = {},
): Promise<[Side, Side]> {
  return [
    await startSide({ ...options, lane: true }),
    await startSide({ ...options, lane: false }),
  ];
}

/** The lines written after `from`, without the initialize answer. */
function wireSince(side: Side, from: number): string[] {
  return side.wire.slice(from);
}

/** What the relay sent upstream for tools/call and cancellations. */
function callsUpstream(side: Side): JSONRPCMessage[] {
  return side.sentUpstream.filter(
    (message) =>
      "method" in message &&
      (message.method === "tools/call" || message.method === "notifications/cancelled"),
  );
}

/** An event without its timing. */
function withoutMs({ ms: _ms, ...event }: RelayCallEvent) {
  return event;
}

describe("the call lane", () => {
  it("answers small calls with the very bytes the relay server writes, and says it answered them", async () => {
    const [lane, server] = await startBoth();
    for (const side of [lane, server]) {
      const from = side.wire.length;
      await side.client.callTool({ name: "echo", arguments: { text: 'héllo "quoted" 1.50' } });
      await side.client.callTool({ name: "echo", arguments: { text: "second" } });
      side.wire.splice(0, from);
    }
    expect(lane.wire).toEqual(server.wire);
    expect(lane.wire[0]).toMatchInlineSnapshot(
      `"{"result":{"content":[{"type":"text","text":"héllo \\"quoted\\" 1.50"}]},"jsonrpc":"2.0","id":1}"`,
    );
    expect(callsUpstream(lane)).toEqual(callsUpstream(server));
    expect(callsUpstream(lane)[0]).toMatchInlineSnapshot(`
      {
        "id": 2,
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {
          "_meta": {
            "progressToken": 2,
          },
          "arguments": {
            "text": "héllo "quoted" 1.50",
          },
          "name": "echo",
        },
      }
    `);
    expect(lane.events.map((event) => event.path)).toEqual(["lane", "lane"]);
    expect(server.events.map((event) => event.path)).toEqual(["server", "server"]);
    expect(
      lane.events.map(({ path: _path, ...event }) => withoutMs(event as RelayCallEvent)),
    ).toEqual(server.events.map(({ path: _path, ...event }) => withoutMs(event as RelayCallEvent)));
  });

  it("bounds a large result into the same envelope as the relay server, never inlining it", async () => {
    const [lane, server] = await startBoth();
    const answers: string[] = [];
    for (const side of [lane, server]) {
      const from = side.wire.length;
      const result = await side.client.callTool({ name: "payload", arguments: { mebibytes: 1 } });
      expect(JSON.stringify(result).length).toBeLessThan(40_000);
      answers.push(
        wireSince(side, from)
          .join("\n")
          .replace(/"expiresAt":"[^"]+"/g, '"expiresAt":"<time>"')
          .replace(/\\"expiresAt\\":\\"[^"\\]+\\"/g, '\\"expiresAt\\":\\"<time>\\"'),
      );
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toContain('"responseMeta"');
    expect(lane.events.map((event) => [event.kind, event.path])).toEqual([["bounded", "lane"]]);
    expect(server.events.map((event) => [event.kind, event.path])).toEqual([["bounded", "server"]]);
  });

  it("turns an upstream result: null into an error result at once, as the relay server does", async () => {
    const [lane, server] = await startBoth({ args: [RAW_RESULT_SERVER_PATH] });
    const answers: string[][] = [];
    for (const side of [lane, server]) {
      const from = side.wire.length;
      const result = await side.client.callTool({ name: "null_result", arguments: {} });
      expect(result.isError).toBe(true);
      answers.push(wireSince(side, from));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(lane.events.map((event) => event.path)).toEqual(["lane"]);
  });

  it("relays an upstream JSON-RPC error with the relay server's code, message and data", async () => {
    const [lane, server] = await startBoth({ args: [ERROR_RESPONSE_SERVER] });
    const answers: string[][] = [];
    for (const side of [lane, server]) {
      const from = side.wire.length;
      await expect(side.client.callTool({ name: "refuse", arguments: {} })).rejects.toThrow(
        /upstream refused the call/,
      );
      answers.push(wireSince(side, from));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual([
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"upstream refused the call","data":{"why":"testing"}}}',
    ]);
    expect(lane.events).toEqual([]);
  });

  it("relays progress with the caller's own token, then the answer, as the relay server does", async () => {
    const [lane, server] = await startBoth();
    const answers: string[][] = [];
    for (const side of [lane, server]) {
      const seen: unknown[] = [];
      const from = side.wire.length;
      await side.client.callTool({ name: "progress", arguments: { steps: 3 } }, undefined, {
        onprogress: (progress) => seen.push(progress),
      });
      expect(seen).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
      answers.push(wireSince(side, from));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[0]).toMatchInlineSnapshot(
      `"{"method":"notifications/progress","params":{"progress":1,"total":3,"progressToken":1},"jsonrpc":"2.0"}"`,
    );
    expect(lane.events.map((event) => event.path)).toEqual(["lane"]);
  });

  it("cancels the upstream call with the upstream's id when the caller cancels, and never answers", async () => {
    const [lane, server] = await startBoth();
    for (const side of [lane, server]) {
      const from = side.wire.length;
      const aborting = new AbortController();
      const call = side.client.callTool({ name: "wait", arguments: {} }, undefined, {
        signal: aborting.signal,
      });
      // Answered after the upstream read the wait call (in order), so its tool is listening.
      await side.client.callTool({ name: "echo", arguments: { text: "before" } });
      aborting.abort("the caller changed its mind");
      await expect(call).rejects.toThrow();
      await eventually(() =>
        expect(side.logger.records.map((record) => record.message)).toContain(
          "[upstream] cancelled: the caller changed its mind",
        ),
      );
      // The answer the upstream still writes after its cancellation reaches nobody.
      await side.client.callTool({ name: "echo", arguments: { text: "after" } });
      expect(wireSince(side, from)).toHaveLength(2);
    }
    expect(callsUpstream(lane)).toEqual(callsUpstream(server));
    expect(callsUpstream(lane)[2]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "the caller changed its mind" },
    });
    expect(lane.events.map((event) => event.path)).toEqual(["lane", "lane"]);
  });

  it("times out a silent call with the SDK's error and cancels it upstream, as the relay server does", async () => {
    const [lane, server] = await startBoth({ timeout: 200 });
    const answers: string[][] = [];
    for (const side of [lane, server]) {
      const from = side.wire.length;
      await expect(side.client.callTool({ name: "wait", arguments: {} })).rejects.toThrow(
        /Request timed out/,
      );
      answers.push(wireSince(side, from));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toEqual([
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Request timed out","data":{"timeout":200}}}',
    ]);
    expect(callsUpstream(lane)).toEqual(callsUpstream(server));
    expect(callsUpstream(lane)[1]).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "McpError: MCP error -32001: Request timed out" },
    });
  });

  it("fails a call past maxTotalTimeout and cancels it upstream at once", async () => {
    // The SDK path cancels such a call only when its first timer fires (here 20 s later, past
    // the wait below); the lane cancels it as it fails it, so the upstream tool does not work on
    // for nobody.
    const lane = await startSide({ lane: true, timeout: 20_000, maxTotalTimeout: 300 });
    await expect(
      lane.client.callTool({ name: "slow", arguments: { steps: 400, stepMs: 50 } }),
    ).rejects.toThrow(/Maximum total timeout exceeded/);
    const sent = callsUpstream(lane)[0] as { id: number };
    await eventually(() =>
      expect(callsUpstream(lane)[1]).toMatchObject({
        method: "notifications/cancelled",
        params: {
          requestId: sent.id,
          reason: expect.stringMatching(/Maximum total timeout exceeded/),
        },
      }),
    );
  });

  it("keeps a call alive past its timeout while the upstream reports progress", async () => {
    // 40 steps of 100 ms against 3 s of allowed silence (30 steps, so a stalled loaded machine
    // does not time it out): the call outlives its timeout only through the resets.
    const [lane] = await startBoth({ timeout: 3_000 });
    const result = await lane.client.callTool({
      name: "slow",
      arguments: { steps: 40, stepMs: 100 },
    });
    expect(result.content).toEqual([
      { type: "text", text: "done after 40 steps; asked for progress: true" },
    ]);
    expect(lane.events.map((event) => event.path)).toEqual(["lane"]);
  });

  it("fails the call in flight when the upstream crashes with the relay server's error", async () => {
    const [lane, server] = await startBoth();
    const answers: string[][] = [];
    for (const side of [lane, server]) {
      const from = side.wire.length;
      await expect(side.client.callTool({ name: "crash", arguments: { code: 3 } })).rejects.toThrow(
        /exited with code 3/,
      );
      answers.push(wireSince(side, from));
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("writes a small answer downstream in the turn its upstream answer arrives; bounds a large one", async () => {
    // The upstream transport hands each message over and then looks at the downstream wire at
    // once: a small result passing through is already answered (no microtask in between), a large
    // one is bounded (asynchronously) into its envelope. A lane answering through runToolCall's
    // promise chain writes neither in that turn.
    const answeredInTurn: boolean[] = [];
    const wire: string[] = [];
    const relay = createBoundedRelay({
      bounded,
      upstream: {
        kind: "transport",
        name: "fixture",
        createTransport: () => {
          const inner = createLinearStdioClientTransport({
            command: process.execPath,
            args: [FIXTURE_SERVER_PATH],
            closeGraceMs: 100,
          });
          const outer: Transport = {
            start: () => inner.start(),
            send: (message, options) => inner.send(message, options),
            close: () => inner.close(),
          };
          inner.onmessage = (message) => {
            const before = wire.length;
            outer.onmessage?.(message);
            if ("result" in message && "content" in (message.result as object)) {
              answeredInTurn.push(wire.length > before);
            }
          };
          inner.onclose = () => outer.onclose?.();
          inner.onerror = (error) => outer.onerror?.(error);
          return outer;
        },
      },
    });
    const client = await connectRecording(relay, wire);
    sides.push({
      relay,
      client,
      wire,
      sentUpstream: [],
      events: [],
      logger: createRecordingLogger(),
    });
    // Listed first, so the tools' outputSchemas are known (an unknown one is looked up: a promise).
    await client.listTools();
    expect(await client.callTool({ name: "echo", arguments: { text: "small" } })).toEqual({
      content: [{ type: "text", text: "small" }],
    });
    const large = await client.callTool({ name: "payload", arguments: { mebibytes: 1 } });
    expect(large.structuredContent).toMatchObject({ responseMeta: { contractVersion: 3 } });
    expect(await client.callTool({ name: "echo", arguments: { text: "again" } })).toEqual({
      content: [{ type: "text", text: "again" }],
    });
    expect(answeredInTurn).toEqual([true, false, true]);
  });

  it("times out a silent call that follows an answered one (the idle sweep timer is kept, unref'd)", async () => {
    const lane = await startSide({ lane: true, timeout: 300 });
    await lane.client.callTool({ name: "echo", arguments: { text: "answered" } });
    const from = lane.wire.length;
    await expect(lane.client.callTool({ name: "wait", arguments: {} })).rejects.toThrow(
      /Request timed out/,
    );
    expect(wireSince(lane, from)).toEqual([
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"Request timed out","data":{"timeout":300}}}',
    ]);
    const [, waited, cancelled] = callsUpstream(lane) as { id?: number; params?: unknown }[];
    expect(cancelled).toMatchObject({
      method: "notifications/cancelled",
      params: { requestId: waited?.id },
    });
  });

  it("leaves hooked tools and the query tool to the relay server", async () => {
    const hooks: ToolHooks = { echo: () => {} };
    const [lane] = await startBoth({ hooks });
    await lane.client.callTool({ name: "echo", arguments: { text: "hooked" } });
    await lane.client.callTool({ name: "pid", arguments: {} });
    await lane.client.request(
      { method: "tools/call", params: { name: QUERY_TOOL_NAME, arguments: { artifactId: "x" } } },
      LOOSE,
    );
    expect(lane.events.map((event) => [event.tool, event.path])).toEqual([
      ["echo", "server"],
      ["pid", "lane"],
      [QUERY_TOOL_NAME, "server"],
    ]);
  });
});
