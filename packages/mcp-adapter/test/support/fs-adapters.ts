import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { afterEach } from "vitest";
import type { BoundedMcp } from "../../src/server/create-bounded-mcp.js";
import { createTestAdapter, TEST_NOW } from "./harness.js";

/**
 * Adapters over fs stores in temporary folders, for tests that read an artifact back through a
 * second adapter over the same folder (a restart, another replica). Call once at a test file's top
 * level: every adapter is disposed and every folder removed after each test.
 */
export function useFsAdapters(prefix: string): {
  /** A fresh temporary folder, removed after the test. */
  folder(): Promise<string>;
  /** A test adapter over an fs store in `dir` (TEST_NOW as its clock, no sweep). */
  adapterOver(dir: string): BoundedMcp;
} {
  const folders: string[] = [];
  const adapters: BoundedMcp[] = [];
  afterEach(async () => {
    for (const adapter of adapters.splice(0)) await adapter.dispose();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  return {
    async folder() {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      folders.push(dir);
      return dir;
    },
    adapterOver(dir) {
      const artifactStore = createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 });
      const bounded = createTestAdapter({ artifactStore });
      adapters.push(bounded);
      return bounded;
    },
  };
}
