import { PassThrough } from "node:stream";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import { type StdioServing, serveStdio } from "./serve-stdio.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";

let bounded: BoundedMcp;
let relay: BoundedRelay;
let serving: StdioServing;
const stdin = new PassThrough();
const stdout = new PassThrough();
const received: { id?: unknown; result?: unknown; error?: unknown }[] = [];

beforeAll(async () => {
  bounded = createBoundedMcp({ environment: {} });
  relay = createBoundedRelay({
    bounded,
    upstream: { kind: "stdio", command: process.execPath, args: [FIXTURE_SERVER_PATH] },
  });
  let pending = "";
  stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line !== "") received.push(JSON.parse(line));
  });
  serving = await serveStdio(relay, {
    stdin,
    stdout,
    logger: createRecordingLogger(),
    upstreamLabel: "the fixture",
  });
  stdin.write(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1.0.0"}}}\n',
  );
  stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
});

afterAll(async () => {
  stdin.end();
  await serving?.ended;
  await relay?.close();
  await bounded?.dispose();
});

/** Writes `line` (a tools/call with id `id`) to the relay's stdin as is; resolves with its answer. */
async function answerTo(id: number, line: string) {
  stdin.write(`${line}\n`);
  await vi.waitFor(() => expect(received.some((message) => message.id === id)).toBe(true), {
    timeout: 30_000,
  });
  return received.find((message) => message.id === id);
}

describe("a client line whose arguments hold an own __proto__ key (JSON.parse keeps it), over the relay's stdio", () => {
  it("gets the query tool's INVALID_RESPONSE_CONTROLS envelope naming __proto__", async () => {
    const answer = (await answerTo(
      2,
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"${QUERY_TOOL_NAME}","arguments":{"artifactId":"abc","__proto__":{"pageSize":1}}}}`,
    )) as { result: { isError: boolean; structuredContent: { response: { error: unknown } } } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CONTROLS",
      details: { field: "__proto__" },
    });
  });

  it("gets an error result for an upstream tool, which is not called with the key dropped", async () => {
    expect(
      await answerTo(
        3,
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"admin":true}}}}',
      ),
    ).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        content: [
          {
            type: "text",
            text: 'bounded-mcp: tool "echo" was called with an argument named "__proto__", which cannot be passed on as data (it would be dropped); rename or remove it',
          },
        ],
        isError: true,
      },
    });
  });
});
