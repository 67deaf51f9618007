import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClock, metaFor, testArtifactId } from "@bounded-mcp/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createFsStore } from "../fs/fs-store.js";
import { createMemoryStore } from "../memory/memory-store.js";
import { StoreError } from "../store-error.js";
import type { ArtifactStore } from "../types.js";
import { planEviction, type ShareEntry } from "./scope-shares.js";

const entry = (id: string, scopeHash: string, byteLength: number, expired = false): ShareEntry => ({
  id,
  scopeHash,
  byteLength,
  expired,
});

describe("planEviction", () => {
  it("makes room within the putting scope's share from its own artifacts only", () => {
    const entries = [entry("b1", "B", 100), entry("a1", "A", 300), entry("a2", "A", 300)];
    const plan = planEviction({
      entries,
      scopeHash: "A",
      incoming: 300,
      capBytes: 10_000,
      shareBytes: 700,
    });
    expect(plan.map((item) => item.id)).toEqual(["a1"]);
  });

  it("removes the scope's expired artifacts before its oldest live one", () => {
    const entries = [entry("a1", "A", 300), entry("a2", "A", 300, true)];
    const plan = planEviction({
      entries,
      scopeHash: "A",
      incoming: 300,
      capBytes: 10_000,
      shareBytes: 700,
    });
    expect(plan.map((item) => item.id)).toEqual(["a2"]);
  });

  it("at the store's cap takes expired artifacts first, then the largest holder's oldest", () => {
    const entries = [
      entry("b1", "B", 100),
      entry("c1", "C", 200, true),
      entry("d1", "D", 400),
      entry("d2", "D", 400),
    ];
    const plan = planEviction({
      entries,
      scopeHash: "A",
      incoming: 300,
      capBytes: 1_100,
      shareBytes: 1_100,
    });
    expect(plan.map((item) => item.id)).toEqual(["c1", "d1"]);
  });

  it("counts bytes being written, the scope's own ones in its share", () => {
    const plan = planEviction({
      entries: [entry("a1", "A", 300), entry("b1", "B", 300)],
      scopeHash: "A",
      incoming: 300,
      capBytes: 10_000,
      shareBytes: 700,
      reservedBytes: 400,
      reservedOwnBytes: 200,
    });
    expect(plan.map((item) => item.id)).toEqual(["a1"]);
  });
});

const folders: string[] = [];
const stores: ArtifactStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.dispose();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const at = (time: number) => createTestClock(time);
type Open = (capBytes: number, shareBytes: number) => Promise<ArtifactStore>;
const backends: [string, Open][] = [
  [
    "memory",
    async (maxBytes, shareBytes) => createMemoryStore({ maxBytes, shareBytes, clock: at(0) }),
  ],
  [
    "fs",
    async (quotaBytes, shareBytes) => {
      const dir = await mkdtemp(join(tmpdir(), "bounded-mcp-shares-"));
      folders.push(dir);
      return createFsStore({ dir, quotaBytes, shareBytes, sweepIntervalMs: 0, clock: at(0) });
    },
  ],
];

describe.each(backends)("the %s store with per-scope shares", (_name, open) => {
  const body = (fill: number, bytes = 400) => Buffer.alloc(bytes, fill);
  const put = async (store: ArtifactStore, index: number, scopeHash: string, fill: number) => {
    const meta = { ...metaFor(testArtifactId(index), body(fill), { createdAt: index }), scopeHash };
    await store.put(meta, body(fill));
    return meta.id;
  };
  const live = async (store: ArtifactStore, ids: string[]) => {
    const found: string[] = [];
    for (const id of ids) {
      const head = await store.head(id);
      if (head !== null && !("expired" in head)) found.push(id);
    }
    return found;
  };

  it("evicts only the putting scope's own artifacts when it fills its share", async () => {
    const store = await open(4_000, 1_000);
    stores.push(store);
    const other = await put(store, 1, "scope-B", 1);
    const own = [];
    for (let index = 2; index < 8; index += 1) own.push(await put(store, index, "scope-A", index));
    // A share of 1,000 bytes holds two of A's 400-byte bodies: the newest two.
    expect(await live(store, [other, ...own])).toEqual([other, ...own.slice(-2)]);
  });

  it("refuses a body over one scope's share with QUOTA_EXCEEDED naming the share", async () => {
    const store = await open(4_000, 1_000);
    stores.push(store);
    const kept = await put(store, 1, "scope-A", 1);
    const large = body(9, 1_001);
    const meta = { ...metaFor(testArtifactId(2), large), scopeHash: "scope-A" };
    const failure = await store.put(meta, large).catch((error: unknown) => error);
    expect(StoreError.isInstance(failure)).toBe(true);
    expect({
      code: (failure as StoreError).code,
      limit: (failure as StoreError).limit,
      message: (failure as StoreError).message,
    }).toEqual({
      code: "QUOTA_EXCEEDED",
      limit: 1_000,
      message: `[stores:${store.name}] put failed: 1001 bytes exceed one caller's share of 1000`,
    });
    expect(await live(store, [kept])).toEqual([kept]);
  });

  it("without shareBytes keeps today's pruning: the oldest go first at the cap", async () => {
    const store = await open(1_000, 1_000);
    stores.push(store);
    const first = await put(store, 1, "scope-A", 1);
    const second = await put(store, 2, "scope-A", 2);
    const third = await put(store, 3, "scope-A", 3);
    expect(await live(store, [first, second, third])).toEqual([second, third]);
  });
});
