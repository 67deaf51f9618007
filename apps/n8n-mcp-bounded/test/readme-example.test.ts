/**
 * README.md's "Programmatic use" block, read from the README at test time and run as its own
 * process: a real client connects, makes one bounded call and closes stdin; the program must then
 * exit 0 by itself (no signal is ever sent).
 */

import {
  closeAndAwaitExit,
  createChildStdioTransport,
  spawnReadmeBlock,
  writeReadmeBlock,
} from "@bounded-mcp/vitest-config/readme-blocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { testEnvironment } from "./support/connect-bounded.js";
import { envelopeOf } from "./support/envelopes.js";

describe("README programmatic use", () => {
  it("serves a bounded get_node and exits 0 once its client closes stdin", async () => {
    const file = writeReadmeBlock({
      readme: new URL("../README.md", import.meta.url),
      name: "embed-n8n",
      packageDir: new URL("..", import.meta.url),
    });
    const started = performance.now();
    const running = spawnReadmeBlock(file, { env: testEnvironment() });
    const client = new Client({ name: "readme-test", version: "1.0.0" });
    await client.connect(createChildStdioTransport(running.child));
    const result = (await client.callTool({
      name: "get_node",
      arguments: { nodeType: "n8n-nodes-base.notion", detail: "full" },
    })) as CallToolResult;
    expect(envelopeOf(result).responseMeta.artifact.uri).toMatch(/^artifact:\/\/n8n-mcp\//);
    // The deadline is what starting n8n-mcp and one call took, twice over: shutting down closes
    // the same child and does no more work than starting it did.
    const deadline = 2 * (performance.now() - started);
    const outcome = await closeAndAwaitExit(client, running, deadline); // ends stdin only
    expect(outcome).toMatchObject({ code: 0, signal: null });
  });
});
