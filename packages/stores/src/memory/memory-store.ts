import { Readable } from "node:stream";
import { assertValidArtifactId } from "../artifact-id.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { checkPut, copyMeta, isExpired } from "../shared/meta.js";
import type { ArtifactMeta, ArtifactStore, PutOptions, StoredArtifact } from "../types.js";

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /** Byte cap over all bodies (default 256 MiB). A put prunes expired, then oldest artifacts. */
  maxBytes?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
}

/** The memory store's default byte cap: 256 MiB. */
export const DEFAULT_MEMORY_MAX_BYTES = 256 * 1024 * 1024;

const STORE = "memory";

interface Entry {
  meta: ArtifactMeta;
  body: Buffer;
  /** Put order, breaks createdAt ties when choosing the oldest. */
  sequence: number;
}

/**
 * An in-process store for one process and tests: nothing survives a restart and replicas do not
 * share it. Bytes are capped by `maxBytes`; when a put would exceed it, expired artifacts go
 * first, then the oldest (smallest createdAt, then put order). A body larger than the cap is
 * rejected with StoreError QUOTA_EXCEEDED. Bodies are copied in and out, so callers cannot
 * change what is stored, except a body handed over with PutOptions (kept as is).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ArtifactStore {
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_MAX_BYTES;
  const clock = options.clock ?? Date.now;
  const lifecycle = createLifecycle(STORE);
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  let sequence = 0;

  const remove = (id: string): number => {
    const entry = entries.get(id);
    if (entry === undefined) return 0;
    entries.delete(id);
    totalBytes -= entry.body.byteLength;
    return entry.body.byteLength;
  };

  const live = (id: string, operation: string): Entry | null => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    const entry = entries.get(id);
    if (entry === undefined || isExpired(entry.meta, clock())) return null;
    return entry;
  };

  const pruneFor = (incoming: number, now: number): void => {
    if (totalBytes + incoming <= maxBytes) return;
    for (const [id, entry] of entries) {
      if (isExpired(entry.meta, now)) remove(id);
    }
    const byAge = [...entries.values()].sort(
      (left, right) => left.meta.createdAt - right.meta.createdAt || left.sequence - right.sequence,
    );
    for (const entry of byAge) {
      if (totalBytes + incoming <= maxBytes) return;
      remove(entry.meta.id);
    }
  };

  const store: ArtifactStore = {
    name: STORE,
    capabilities: { persistent: false, shared: false, quota: true },

    async put(meta, body, options?: PutOptions) {
      lifecycle.assertOpen("put");
      const checked = checkPut(STORE, meta, body, maxBytes, options?.sha256Computed !== true);
      remove(checked.id);
      pruneFor(body.byteLength, clock());
      const kept =
        options?.handOver === true
          ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
          : Buffer.from(body);
      entries.set(checked.id, { meta: checked, body: kept, sequence: sequence++ });
      totalBytes += body.byteLength;
    },

    async get(id): Promise<StoredArtifact | null> {
      const entry = live(id, "get");
      return entry === null ? null : { meta: copyMeta(entry.meta), body: Buffer.from(entry.body) };
    },

    async getStream(id) {
      const entry = live(id, "getStream");
      if (entry === null) return null;
      const body = Readable.from([Buffer.from(entry.body)], { objectMode: false });
      return { meta: copyMeta(entry.meta), body };
    },

    async head(id) {
      const entry = live(id, "head");
      return entry === null ? null : copyMeta(entry.meta);
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      remove(id);
    },

    async sweep(now) {
      lifecycle.assertOpen("sweep");
      const at = now ?? clock();
      let removed = 0;
      let freedBytes = 0;
      for (const [id, entry] of entries) {
        if (!isExpired(entry.meta, at)) continue;
        freedBytes += remove(id);
        removed += 1;
      }
      return { removed, freedBytes };
    },

    async usage() {
      lifecycle.assertOpen("usage");
      return { count: entries.size, bytes: totalBytes };
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      entries.clear();
      totalBytes = 0;
    },
  };
  return store;
}
