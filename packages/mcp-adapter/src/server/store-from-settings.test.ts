import { existsSync, readdirSync } from "node:fs";
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

  it("loads the backend in the background: once loaded, a staged body's file is created before stage() returns", async () => {
    const dir = await mkdtemp(join(tmpdir(), "adapter-settings-fs-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const bounded = createTestAdapter({
      environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_STORE_DIR: dir },
    });
    cleanups.push(() => bounded.dispose());
    // Any read waits for the backend (and its folder): loaded without a first use.
    expect(await bounded.store.head(`a${"0".repeat(42)}`)).toBeNull();
    const store = bounded.store;
    if (!canStage(store)) throw new Error("the fs store stages");
    const staged = store.stage(Buffer.from("[1,2,3]"));
    // Synchronously: the fs store opened the temp file and handed its write to the thread pool
    // (before, the stage waited for the import's promise, so nothing existed yet).
    const files = readdirSync(dir);
    await staged.discard();
    expect({ files: files.map((file) => file.replace(/-[0-9a-f]{12}$/, "-<random>")) }).toEqual({
      files: [expect.stringMatching(/^\.tmp-.*-staged-<random>$/)],
    });
  });

  it("starts no background load for an adapter disposed at once", async () => {
    const root = await mkdtemp(join(tmpdir(), "adapter-settings-fs-"));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dir = join(root, "never-created");
    const bounded = createTestAdapter({
      environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_STORE_DIR: dir },
    });
    await bounded.dispose();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(dir)).toBe(false);
  });
});
