/**
 * README.md's example, as written there: only the fixture directory, the stdio streams (a
 * PassThrough pair instead of the process's own) and the client's lines are added. If this
 * fails, the README is wrong.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { BoundedEnvelopeSchema } from "@bounded-mcp/contract";
import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBoundedRelay, serveStdio } from "../src/index.js";
import { SERVER_FILESYSTEM_PATH } from "../src/test-support/fixture-paths.js";
import { createPayloadText } from "../src/test-support/payload.mjs";

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "relay-readme-"));
  await writeFile(join(directory, "big.json"), createPayloadText(1));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** Lines a stdio server wrote, parsed. */
function collectLines(stream: PassThrough): unknown[] {
  const lines: unknown[] = [];
  let pending = "";
  stream.on("data", (chunk: Buffer) => {
    const parts = (pending + chunk.toString("utf8")).split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) if (part !== "") lines.push(JSON.parse(part));
  });
  return lines;
}

describe("README example", () => {
  it("serves server-filesystem over stdio with a 1 MiB file bounded, then ends with 0", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const received = collectLines(stdout);
    const logger = createRecordingLogger();
    const serverFilesystemEntry = SERVER_FILESYSTEM_PATH;
    const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "readme", version: "1.0.0" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "read_text_file", arguments: { path: join(directory, "big.json") } },
    });
    stdin.end();

    // --- README.md "Example" (streams added) ---
    const bounded = createBoundedMcp({ environment: {}, logger });
    const relay = createBoundedRelay({
      bounded,
      upstream: {
        kind: "stdio",
        command: process.execPath,
        args: [serverFilesystemEntry, directory],
        name: "filesystem",
      },
      logger,
    });
    const serving = await serveStdio(relay, {
      logger,
      signals: ["SIGINT", "SIGTERM"],
      stdin,
      stdout,
    });
    const code = await serving.ended; // stdin ended or a signal: 0; the upstream did not start: 1
    await relay.close();
    await bounded.dispose();
    // --- end of the example (a program would now call process.exit(code)) ---

    expect(code).toBe(0);
    const answer = received.find((message) => (message as { id?: unknown }).id === 2) as {
      result: { structuredContent: unknown };
    };
    const envelope = BoundedEnvelopeSchema.parse(answer.result.structuredContent);
    expect(envelope.responseMeta.serializedBytes).toBeGreaterThan(1024 * 1024);
  });
});
