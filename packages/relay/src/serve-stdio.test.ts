import { PassThrough } from "node:stream";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import { serveStdio } from "./serve-stdio.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import type { UpstreamSpec } from "./upstream-transport.js";

const FIXTURE: UpstreamSpec = {
  kind: "stdio",
  command: process.execPath,
  args: [FIXTURE_SERVER_PATH],
};
const INITIALIZE: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "stdio-client", version: "1.0.0" },
  },
};

const opened: { relay: BoundedRelay; bounded: BoundedMcp }[] = [];
afterEach(async () => {
  for (const { relay, bounded } of opened.splice(0)) {
    await relay.close();
    await bounded.dispose();
  }
});

/** A relay served over in-process stdio streams; `received` collects what it wrote to stdout. */
async function serve(
  upstream: UpstreamSpec,
  options: { signals?: NodeJS.Signals[]; maxMessageBytes?: number } = {},
) {
  const bounded = createBoundedMcp({ environment: {} });
  const relay = createBoundedRelay({ bounded, upstream });
  opened.push({ relay, bounded });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: JSONRPCMessage[] = [];
  let pending = "";
  stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line !== "") received.push(JSON.parse(line) as JSONRPCMessage);
  });
  const logger = createRecordingLogger();
  const serving = await serveStdio(relay, {
    stdin,
    stdout,
    logger,
    upstreamLabel: "the fixture",
    ...options,
  });
  const send = (message: JSONRPCMessage) => stdin.write(`${JSON.stringify(message)}\n`);
  return { serving, stdin, received, logger, send };
}

describe("serveStdio", () => {
  it("sends the answer in flight when stdin ends right after the last request, then ends with 0", async () => {
    const { serving, stdin, received, send } = await serve(FIXTURE);
    send(INITIALIZE);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "slow", arguments: { steps: 2, stepMs: 5 } },
    });
    stdin.end();
    expect(await serving.ended).toBe(0);
    expect(received.find((message) => "id" in message && message.id === 2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "done after 2 steps; asked for progress: true" }] },
    });
    await expect(serving.session.closed).resolves.toBeUndefined();
  });

  it("answers the initialize with the cause and ends with 1 when the upstream cannot start", async () => {
    const { serving, received, logger, send } = await serve({
      kind: "transport",
      name: "broken",
      createTransport: () => {
        throw new Error("spawn broken ENOENT");
      },
    });
    send(INITIALIZE);
    expect(await serving.ended).toBe(1);
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32603,
          message: "the upstream could not be connected: spawn broken ENOENT",
        },
      },
    ]);
    expect(logger.records).toContainEqual({
      level: "error",
      message: "the fixture could not be started: exiting",
      fields: { error: "spawn broken ENOENT" },
    });
  });

  it("stops on a listed signal with 0, and removes its listeners once stopped", async () => {
    const before = process.listenerCount("SIGUSR2");
    const { serving, send, received } = await serve(FIXTURE, { signals: ["SIGUSR2"] });
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    send(INITIALIZE);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 15_000 });
    process.emit("SIGUSR2", "SIGUSR2");
    expect(await serving.ended).toBe(0);
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });

  it("keeps serving after a 10.5 MiB request line (the SDK's stdio transport ended the session at 10 MiB)", async () => {
    const { serving, received, send } = await serve(FIXTURE);
    send(INITIALIZE);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: QUERY_TOOL_NAME, arguments: { artifactId: "a".repeat(10.5 * 1024 * 1024) } },
    });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "still here" } },
    });
    await vi.waitFor(() => expect(received.filter((message) => "id" in message)).toHaveLength(3), {
      timeout: 30_000,
    });
    expect(received.find((message) => "id" in message && message.id === 2)).toMatchObject({
      result: {
        isError: true,
        structuredContent: { response: { error: { code: "INVALID_ARTIFACT_HANDLE" } } },
      },
    });
    expect(received.find((message) => "id" in message && message.id === 3)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { content: [{ type: "text", text: "still here" }] },
    });
    await serving.stop();
    expect(await serving.ended).toBe(0);
  });

  it("answers a request over maxMessageBytes with a JSON-RPC error for its id and serves the next", async () => {
    const { serving, received, send, logger } = await serve(FIXTURE, { maxMessageBytes: 4096 });
    send(INITIALIZE);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "b".repeat(8192) } },
    });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "small" } },
    });
    await vi.waitFor(() => expect(received.filter((message) => "id" in message)).toHaveLength(3), {
      timeout: 15_000,
    });
    expect(received.find((message) => "id" in message && message.id === 2)).toMatchObject({
      error: { code: -32600, data: { limit: 4096 } },
    });
    expect(received.find((message) => "id" in message && message.id === 3)).toMatchObject({
      result: { content: [{ type: "text", text: "small" }] },
    });
    expect(logger.records.map((record) => record.message)).toContain(
      "the client sent a request over the byte cap; it was dropped unread",
    );
    await serving.stop();
  });
});
