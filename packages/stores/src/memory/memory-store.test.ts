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
  { capabilities: { persistent: false, shared: false, quota: true, staging: true } },
);

describe("createMemoryStore", () => {
  it("remembers an artifact it pruned because it expired, for expiredGraceMs", async () => {
    const clock = createTestClock(0);
    const store = createMemoryStore({ maxBytes: 100, clock, expiredGraceMs: 1_000 });
    const body = Buffer.alloc(60, 1);
    const meta = metaFor(testArtifactId(5), body, { createdAt: 0, expiresAt: 10 });
    await store.put(meta, body);
    clock.set(10);
    await store.put(metaFor(testArtifactId(6), body, { createdAt: 10 }), body);
    const expired = { expired: true, id: meta.id, scopeHash: meta.scopeHash, expiresAt: 10 };
    const atGraceEnd = async () => {
      clock.set(10 + 1_000);
      return store.head(meta.id);
    };
    expect([await store.head(meta.id), await atGraceEnd()]).toEqual([expired, null]);
  });

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
    expect([await store.get(testArtifactId(1)), await store.get(testArtifactId(2))]).toEqual([
      { meta: metaFor(testArtifactId(1), older, { createdAt: 0 }), body: older },
      { meta: metaFor(testArtifactId(2), second, { createdAt: 2 }), body: second },
    ]);
  });
});
