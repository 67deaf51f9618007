import { assertValidArtifactId } from "../artifact-id.js";
import { createExpiredMemory, expiredOf } from "../shared/expired-memory.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { checkPut, copyMeta, isExpired } from "../shared/meta.js";
import { createStagedHandle } from "../shared/staged-handle.js";
import type {
  ArtifactMeta,
  ExpiredArtifact,
  StagingArtifactStore,
  StoredArtifact,
} from "../types.js";

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /** Byte cap over all bodies (default 256 MiB). A put prunes expired, then oldest artifacts. */
  maxBytes?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
  /**
   * How long an artifact removed because it expired (sweep, pruning) still reads as expired
   * rather than unknown, in ms (default one hour; 0: not at all).
   */
  expiredGraceMs?: number;
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
 * rejected with StoreError QUOTA_EXCEEDED. `put` copies bodies in and every read copies them out,
 * so callers cannot change what is stored; a body handed over with `stage` is kept as is (the
 * caller promised not to change it), without a copy.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): StagingArtifactStore {
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_MAX_BYTES;
  const clock = options.clock ?? Date.now;
  const lifecycle = createLifecycle(STORE);
  const expiredMemory = createExpiredMemory(options.expiredGraceMs);
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

  /** Removes an expired artifact and remembers it as expired. */
  const removeExpired = (entry: Entry, now: number): number => {
    expiredMemory.remember(entry.meta, now);
    return remove(entry.meta.id);
  };

  const live = (id: string, operation: string): Entry | ExpiredArtifact | null => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    const entry = entries.get(id);
    const now = clock();
    if (entry === undefined) return expiredMemory.recall(id, now);
    return isExpired(entry.meta, now) ? expiredOf(entry.meta) : entry;
  };

  const pruneFor = (incoming: number, now: number): void => {
    if (totalBytes + incoming <= maxBytes) return;
    for (const entry of entries.values()) {
      if (isExpired(entry.meta, now)) removeExpired(entry, now);
    }
    const byAge = [...entries.values()].sort(
      (left, right) => left.meta.createdAt - right.meta.createdAt || left.sequence - right.sequence,
    );
    for (const entry of byAge) {
      if (totalBytes + incoming <= maxBytes) return;
      remove(entry.meta.id);
    }
  };

  /** Keeps `body` (already checked, the store's own) under `meta`. */
  const keep = (meta: ArtifactMeta, body: Buffer): void => {
    remove(meta.id);
    expiredMemory.forget(meta.id);
    pruneFor(body.byteLength, clock());
    entries.set(meta.id, { meta, body, sequence: sequence++ });
    totalBytes += body.byteLength;
  };

  return {
    name: STORE,
    capabilities: { persistent: false, shared: false, quota: true, staging: true },

    async put(meta, body) {
      lifecycle.assertOpen("put");
      keep(checkPut(STORE, meta, body, maxBytes), Buffer.from(body));
    },

    stage(body) {
      return createStagedHandle(STORE, {
        async commit(meta, commitOptions) {
          lifecycle.assertOpen("commit");
          const verify = commitOptions?.sha256FromBody !== true;
          const checked = checkPut(STORE, meta, body, maxBytes, verify);
          keep(checked, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
        },
        async discard() {},
      });
    },

    async get(id): Promise<StoredArtifact | ExpiredArtifact | null> {
      const found = live(id, "get");
      if (found === null || "expired" in found) return found;
      return { meta: copyMeta(found.meta), body: Buffer.from(found.body) };
    },

    async head(id) {
      const found = live(id, "head");
      if (found === null || "expired" in found) return found;
      return copyMeta(found.meta);
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      remove(id);
      expiredMemory.forget(id);
    },

    async sweep(now) {
      lifecycle.assertOpen("sweep");
      const at = now ?? clock();
      let removed = 0;
      let freedBytes = 0;
      for (const entry of entries.values()) {
        if (!isExpired(entry.meta, at)) continue;
        freedBytes += removeExpired(entry, at);
        removed += 1;
      }
      return { removed, freedBytes };
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      entries.clear();
      totalBytes = 0;
    },
  };
}
