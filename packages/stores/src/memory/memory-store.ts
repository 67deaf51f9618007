import { assertValidArtifactId } from "../artifact-id.js";
import { createExpiredMemory, expiredOf } from "../shared/expired-memory.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { checkPut, copyMeta, isExpired } from "../shared/meta.js";
import { planEviction, resolveShareBytes } from "../shared/scope-shares.js";
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
  /**
   * Byte cap over the bodies of one caller scope (`meta.scopeHash`: one principal over HTTP);
   * default maxBytes (no shares). A put evicts only its own scope's artifacts to fit its share,
   * and a body over the share fails with QUOTA_EXCEEDED (`limit` names the share). See
   * `planEviction` for what happens when the whole cap is reached.
   */
  shareBytes?: number;
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
 * share it. Bytes are capped by `maxBytes`, and per caller scope by `shareBytes`: a put first
 * evicts its own scope's expired, then oldest artifacts to fit its share; when the whole cap is
 * reached, expired artifacts go first, then the oldest of the scope holding the most bytes
 * (smallest createdAt, then put order). A body larger than the cap is
 * rejected with StoreError QUOTA_EXCEEDED. `put` copies bodies in and every read copies them out,
 * so callers cannot change what is stored; a body handed over with `stage` is kept as is (the
 * caller promised not to change it), without a copy.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): StagingArtifactStore {
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_MAX_BYTES;
  const shareBytes = resolveShareBytes(STORE, options.shareBytes, maxBytes);
  const clock = options.clock ?? Date.now;
  const lifecycle = createLifecycle(STORE);
  const expiredMemory = createExpiredMemory(options.expiredGraceMs);
  const entries = new Map<string, Entry>();
  /** Bytes held in all and per scope: a put that fits both needs no eviction plan. */
  let totalBytes = 0;
  const scopeBytes = new Map<string, number>();
  const account = (scopeHash: string, bytes: number) => {
    totalBytes += bytes;
    const held = (scopeBytes.get(scopeHash) ?? 0) + bytes;
    if (held === 0) scopeBytes.delete(scopeHash);
    else scopeBytes.set(scopeHash, held);
  };
  let sequence = 0;

  const remove = (id: string): number => {
    const entry = entries.get(id);
    if (entry === undefined) return 0;
    entries.delete(id);
    account(entry.meta.scopeHash, -entry.body.byteLength);
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

  const pruneFor = (scopeHash: string, incoming: number, now: number): void => {
    const own = scopeBytes.get(scopeHash) ?? 0;
    if (totalBytes + incoming <= maxBytes && own + incoming <= shareBytes) return;
    const byAge = [...entries.values()].sort(
      (left, right) => left.meta.createdAt - right.meta.createdAt || left.sequence - right.sequence,
    );
    const plan = planEviction({
      entries: byAge.map((entry) => ({
        id: entry.meta.id,
        scopeHash: entry.meta.scopeHash,
        byteLength: entry.body.byteLength,
        expired: isExpired(entry.meta, now),
      })),
      scopeHash,
      incoming,
      capBytes: maxBytes,
      shareBytes,
    });
    for (const planned of plan) {
      const entry = entries.get(planned.id);
      if (entry === undefined) continue;
      if (planned.expired) removeExpired(entry, now);
      else remove(planned.id);
    }
  };

  /** Keeps `body` (already checked, the store's own) under `meta`. */
  const keep = (meta: ArtifactMeta, body: Buffer): void => {
    remove(meta.id);
    expiredMemory.forget(meta.id);
    pruneFor(meta.scopeHash, body.byteLength, clock());
    entries.set(meta.id, { meta, body, sequence: sequence++ });
    account(meta.scopeHash, body.byteLength);
  };

  return {
    name: STORE,
    capabilities: { persistent: false, shared: false, quota: true, staging: true },

    async put(meta, body) {
      lifecycle.assertOpen("put");
      keep(checkPut(STORE, meta, body, maxBytes, true, shareBytes), Buffer.from(body));
    },

    stage(body) {
      return createStagedHandle(STORE, {
        async commit(meta, commitOptions) {
          lifecycle.assertOpen("commit");
          const verify = commitOptions?.sha256FromBody !== true;
          const checked = checkPut(STORE, meta, body, maxBytes, verify, shareBytes);
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
      scopeBytes.clear();
      totalBytes = 0;
    },
  };
}
