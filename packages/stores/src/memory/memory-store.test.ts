import {
  createTestClock,
  metaFor,
  runStoreConformanceSuite,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { describe, expect, it } from "vitest";
import { createMemoryStore, DEFAULT_MEMORY_MAX_BYTES } from "./memory-store.js";

runStoreConformanceSuite(
  "memory",
  async ({ clock, quotaBytes }) =>
    createMemoryStore({ clock, ...(quotaBytes === undefined ? {} : { maxBytes: quotaBytes }) }),
  { capabilities: { persistent: false, shared: false, quota: true } },
);

describe("createMemoryStore", () => {
  it("caps bytes at 256 MiB by default", () => {
    expect(DEFAULT_MEMORY_MAX_BYTES).toBe(256 * 1024 * 1024);
  });

  it("does not count the replaced body against the cap when an id is put again", async () => {
    const clock = createTestClock(0);
    const store = createMemoryStore({ maxBytes: 100, clock });
    const older = Buffer.alloc(40, 1);
    const first = Buffer.alloc(60, 2);
    const second = Buffer.alloc(60, 3);
    await store.put(metaFor(testArtifactId(1), older, { createdAt: 0 }), older);
    await store.put(metaFor(testArtifactId(2), first, { createdAt: 1 }), first);
    await store.put(metaFor(testArtifactId(2), second, { createdAt: 2 }), second);
    expect(await store.usage()).toEqual({ count: 2, bytes: 100 });
  });
});
