import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canStage } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { itemsPayload } from "../../test/support/fixtures.js";
import { connectTwoCallers, createTestAdapter, TEST_NOW } from "../../test/support/harness.js";

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe("the fs store built from settings", () => {
  it("stages through its deferred loader, serves queries, and reports expiry", async () => {
    const dir = await mkdtemp(join(tmpdir(), "adapter-settings-fs-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let now = TEST_NOW;
    const bounded = createTestAdapter({
      clock: () => now,
      environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_STORE_DIR: dir },
      parseCacheBytes: 0,
    });
    cleanups.push(() => bounded.dispose());
    const { alice, bob, id } = await connectTwoCallers(bounded, itemsPayload(300));
    cleanups.push(async () => {
      await alice.close();
      await bob.close();
    });
    const reason = async () => {
      const result = (await alice.client.callTool({
        name: "query_response_artifact",
        arguments: { artifactId: id, describe: true },
      })) as CallToolResult;
      if (result.isError !== true) return "answered";
      return (result.structuredContent as { response: { error: { details?: unknown } } }).response
        .error.details;
    };
    const live = await reason();
    now += 24 * 60 * 60 * 1000;
    expect({
      staging: canStage(bounded.store),
      files: await readdir(dir),
      live,
      expired: [await reason(), await reason()],
    }).toEqual({
      staging: true,
      files: [`${id}.artifact`],
      live: "answered",
      expired: [{ reason: "expired" }, { reason: "expired" }],
    });
  });
});
