import {
  createTestClock,
  metaFor,
  runStoreConformanceSuite,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { createMemoryStore, DEFAULT_MEMORY_MAX_BYTES } from "./memory-store.js";

runStoreConformanceSuite(
  "memory",
  async ({ clock, quotaBytes }) =>
    createMemoryStore({ clock, ...(quotaBytes === undefined ? {} : { maxBytes: quotaBytes }) }),
  { capabilities: { persistent: false, shared: false, quota: true } },
);

describe("createMemoryStore", () => {
  it("caps bytes at 256 MiB by default, refusing a larger body before hashing it", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.alloc(DEFAULT_MEMORY_MAX_BYTES + 1);
    // The sha256 is of an empty body: the cap is checked first, so INVALID_META never comes up.
    const meta = { ...metaFor(testArtifactId(3), Buffer.alloc(0)), byteLength: body.byteLength };
    const failure = await store.put(meta, body).catch((error: unknown) => error);
    expect({
      cap: DEFAULT_MEMORY_MAX_BYTES,
      code: StoreError.isInstance(failure) && failure.code,
      message: StoreError.isInstance(failure) && failure.message,
    }).toEqual({
      cap: 256 * 1024 * 1024,
      code: "QUOTA_EXCEEDED",
      message: "[stores:memory] put failed: 268435457 bytes exceed the cap of 268435456",
    });
    await store.dispose();
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
