/**
 * README.md's "Programmatic use" block, read from the README at test time and run as its own
 * process with the CLI's arguments: a real client connects, calls once and closes stdin; the
 * program must then exit 0 by itself (no signal is ever sent).
 */
import { rmSync } from "node:fs";
import {
  closeAndAwaitExit,
  createChildStdioTransport,
  spawnReadmeBlock,
  writeReadmeBlock,
} from "@bounded-mcp/vitest-config/readme-blocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_EVERYTHING, SERVER_FILESYSTEM } from "./support/paths.js";
import { connectStdioProxy } from "./support/proxy-process.js";
import { type Envelope, structured } from "./support/query.js";

const folder = createJsonFolder(1);
afterAll(() => rmSync(folder.dir, { recursive: true, force: true }));

describe("README programmatic use", () => {
  it("serves a bounded call over stdio and exits 0 once its client closes stdin", async () => {
    const file = writeReadmeBlock({
      readme: new URL("../README.md", import.meta.url),
      name: "embed-proxy",
      packageDir: new URL("..", import.meta.url),
    });
    const started = performance.now();
    const running = spawnReadmeBlock(file, {
      args: ["--store", "memory", "--", process.execPath, SERVER_FILESYSTEM, folder.dir],
      env: { PATH: process.env.PATH ?? "", BOUNDED_MCP_LOG_LEVEL: "warn" },
    });
    const client = new Client({ name: "readme-test", version: "1.0.0" });
    await client.connect(createChildStdioTransport(running.child));
    const result = await client.callTool({
      name: "read_text_file",
      arguments: { path: folder.bigPath },
    });
    const envelope = structured<Envelope>(result);
    expect(envelope.responseMeta.artifact.id).toMatch(/^[A-Za-z0-9_-]{20,100}$/);
    expect(envelope.responseMeta.serializedBytes).toBeGreaterThan(512 * 1024);
    // The deadline is what starting and one call took (upstream spawn included), twice over:
    // shutting down closes the same upstream and does no more work than starting it did.
    const deadline = 2 * (performance.now() - started);
    const outcome = await closeAndAwaitExit(client, running, deadline); // ends stdin only
    expect(outcome).toMatchObject({ code: 0, signal: null });
    expect(running.stderr()).toBe("");
  });

  it("accepts the --hooks example module: the proxy starts with it and lists the upstream's tools", async () => {
    const hooks = writeReadmeBlock({
      readme: new URL("../README.md", import.meta.url),
      name: "proxy-hooks",
      packageDir: new URL("..", import.meta.url),
      extension: "mjs",
    });
    const client = await connectStdioProxy([
      "--hooks",
      hooks,
      "--",
      process.execPath,
      SERVER_EVERYTHING,
      "stdio",
    ]);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("echo");
    } finally {
      await client.close();
    }
  });
});
