import { type FileHandle, mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { assertValidArtifactId } from "../artifact-id.js";
import { createExpiredMemory, expiredOf } from "../shared/expired-memory.js";
import { createKeyedLock } from "../shared/keyed-lock.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { SILENT_STORE_LOGGER, type StoreLogger } from "../shared/logger.js";
import { checkPut, checkPutLength, invalidPutMeta, isExpired, sha256Hex } from "../shared/meta.js";
import { planEviction, resolveShareBytes } from "../shared/scope-shares.js";
import { createStagedHandle } from "../shared/staged-handle.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta, ExpiredArtifact, StagingArtifactStore, SweepResult } from "../types.js";
import {
  completeStaged,
  discardStaged,
  openArtifact,
  readArtifactMeta,
  type StagedFile,
  sha256OfStaged,
  stageBody,
  writeArtifactAtomically,
} from "./artifact-file.js";
import { scanArtifactFolder, unlinkArtifact } from "./artifact-folder.js";
import { sweepArtifactFolder } from "./folder-sweep.js";
import { removeAbandonedTempFiles } from "./temp-files.js";

/** Options of `createFsStore`. */
export interface FsStoreOptions {
  /** The root folder; created (with its parents) with mode 0700 when missing. */
  dir: string;
  /** Byte cap over all bodies (default 1 GiB). A put prunes expired, then oldest artifacts. */
  quotaBytes?: number;
  /**
   * Byte cap over the bodies of one caller scope (`meta.scopeHash`: one principal over HTTP);
   * default quotaBytes (no shares). A put prunes only its own scope's artifacts to fit its share,
   * and a body over the share fails with QUOTA_EXCEEDED (`limit` names the share). Accounted per
   * store instance, like the quota.
   */
  shareBytes?: number;
  /** Period of the background sweep in ms (default 60 000; 0 turns it off). The timer is unref'd. */
  sweepIntervalMs?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
  /**
   * Flush each artifact to disk (fdatasync) before it becomes visible (default false). Off by
   * default: artifacts are short-lived copies of tool results, and reads check length and sha256,
   * so a file torn by a power loss is never served (it reads as missing and the caller calls the
   * tool again). Turn it on when artifacts must survive an operating-system crash; it costs a disk
   * flush per artifact, the time the disk needs to write the file.
   */
  durable?: boolean;
  /** Where background problems (a failed sweep, a corrupt file) are reported; silent by default. */
  logger?: StoreLogger;
  /**
   * How long an artifact this store removed because it expired (sweep, pruning) still reads as
   * expired rather than unknown, in ms (default one hour; 0: not at all). Only this store instance
   * remembers it; an expired file not yet swept reads as expired in every process.
   */
  expiredGraceMs?: number;
  /**
   * Writes a large staged body in shared memory (WRITE_OFF_THREAD_MIN_BYTES or more) at the start
   * of its open temp file on a thread that already holds the bytes, instead of a thread started
   * for the write: the bounder passes its hashing thread's (writeOnHashingThread of
   * `@bounded-mcp/mcp-adapter`), so one helper thread writes, hashes and tests a payload (a thread
   * costs about 8 MiB and 30 ms of CPU). It must not keep the bytes once written, and resolves
   * when all are written or rejects with the write's error; undefined means it cannot (the store
   * starts its own thread). Default: a one-shot thread per body (writeOffThread).
   */
  writeLargeBody?: ((fd: number, bytes: Uint8Array) => Promise<void> | undefined) | undefined;
}

/** The filesystem store's default byte quota: 1 GiB. */
export const DEFAULT_FS_QUOTA_BYTES = 1024 * 1024 * 1024;
/** The filesystem store's default sweep period: one minute. */
export const DEFAULT_FS_SWEEP_INTERVAL_MS = 60_000;

const STORE = "fs";

interface IndexEntry {
  scopeHash: string;
  byteLength: number;
  createdAt: number;
  expiresAt: number;
}

/**
 * A store in one local folder: one file per artifact (body + metadata trailer, see
 * artifact-file.ts), written to a temp file and renamed into place, so a crash never leaves a
 * readable half artifact. Files are 0600, a created folder 0700. A new store over the same folder
 * serves earlier artifacts and removes the temp files of writes that a dead process left (see
 * temp-files.ts); several stores (processes) on one host may share a folder, with the quota
 * accounted per store and re-read from disk at every sweep. Reads check size and sha256 so a
 * damaged file is reported to the logger and never served. It has the `staging` capability: a
 * staged body is written to its temp file in the background while the caller works.
 */
export function createFsStore(options: FsStoreOptions): StagingArtifactStore {
  const dir = resolve(options.dir);
  const quotaBytes = options.quotaBytes ?? DEFAULT_FS_QUOTA_BYTES;
  const shareBytes = resolveShareBytes(STORE, options.shareBytes, quotaBytes);
  const clock = options.clock ?? Date.now;
  const durable = options.durable ?? false;
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const writeLargeBody = options.writeLargeBody;
  const lifecycle = createLifecycle(STORE);
  const idLock = createKeyedLock();
  const quotaLock = createKeyedLock();
  const index = new Map<string, IndexEntry>();
  const expiredMemory = createExpiredMemory(options.expiredGraceMs);
  let reservedBytes = 0;
  /** The part of reservedBytes each scope is writing now. */
  const reservedByScope = new Map<string, number>();
  const reserve = (scopeHash: string, bytes: number) => {
    reservedBytes += bytes;
    const left = (reservedByScope.get(scopeHash) ?? 0) + bytes;
    if (left === 0) reservedByScope.delete(scopeHash);
    else reservedByScope.set(scopeHash, left);
  };
  /** Bodies staged by this store and not yet committed or discarded (dispose discards them). */
  const staged = new Set<StagedFile>();
  /** Removals of replaced artifact files still running (see completeStaged); dispose awaits them. */
  const cleanups = new Set<Promise<void>>();
  const afterWrite = (cleanup: Promise<void>): void => {
    cleanups.add(cleanup);
    void cleanup.finally(() => cleanups.delete(cleanup));
  };

  const fail = (operation: string, cause: unknown): StoreError =>
    StoreError.isInstance(cause)
      ? cause
      : new StoreError({ code: "STORE_UNAVAILABLE", store: STORE, operation, cause });

  const corrupt = (id: string, operation: string): null => {
    logger.warn(`[stores:${STORE}] ${operation}: skipped a damaged artifact file`, { id, dir });
    return null;
  };

  /** Replaces the quota index with what is on disk (other processes may share the folder). */
  const refreshIndex = (metas: ArtifactMeta[]): void => {
    index.clear();
    for (const meta of metas) index.set(meta.id, meta);
  };

  /**
   * Creates the folder, removes the temp files of dead writers and reads the quota index, once;
   * started at construction. A failure (a folder that cannot be created yet) is not kept: the
   * next call tries again.
   */
  let preparing: Promise<void> | null = null;
  /** The folder was prepared: a body can be staged without waiting for the event loop. */
  let prepared = false;
  const ready = (): Promise<void> => {
    preparing ??= (async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const scan = await scanArtifactFolder(dir);
      const removed = await removeAbandonedTempFiles(dir, scan.temps);
      if (removed.length > 0) {
        logger.warn(`[stores:${STORE}] removed the temp files of interrupted writes`, {
          dir,
          files: removed.length,
        });
      }
      refreshIndex(scan.metas);
      prepared = true;
    })().catch((error: unknown) => {
      preparing = null;
      throw error;
    });
    return preparing;
  };
  ready().catch(() => undefined);

  /**
   * Frees room for `incoming` bytes of `scopeHash` within its share and the quota (see
   * planEviction: own expired and oldest first, others only at the quota). Caller holds the
   * quota lock.
   */
  const pruneFor = async (
    scopeHash: string,
    incoming: number,
    replacing: string,
  ): Promise<void> => {
    const now = clock();
    const candidates = [...index.entries()]
      .filter(([id]) => id !== replacing)
      .sort(
        ([leftId, left], [rightId, right]) =>
          left.createdAt - right.createdAt || leftId.localeCompare(rightId),
      );
    const plan = planEviction({
      entries: candidates.map(([id, entry]) => ({
        id,
        scopeHash: entry.scopeHash,
        byteLength: entry.byteLength,
        expired: isExpired(entry, now),
      })),
      scopeHash,
      incoming,
      capBytes: quotaBytes,
      shareBytes,
      reservedBytes,
      reservedOwnBytes: reservedByScope.get(scopeHash) ?? 0,
    });
    for (const { id } of plan) {
      const entry = index.get(id);
      if (entry === undefined) continue;
      await idLock.run(id, async () => {
        // A put of the same id may have finished while this waited for the lock: its new
        // artifact replaced `entry` in the index and is not the one chosen for pruning.
        if (index.get(id) !== entry) return;
        await unlinkArtifact(dir, id);
        index.delete(id);
        if (isExpired(entry, now)) expiredMemory.remember({ id, ...entry }, now);
      });
    }
  };

  /**
   * Opens the artifact `id` and hands its handle to `use` while it is live; an expired one is
   * reported as expired, a missing one as remembered (expired) or null.
   */
  const readLive = async <T>(
    id: string,
    operation: string,
    use: (handle: FileHandle, meta: ArtifactMeta, bodyOffset: number) => Promise<T | null>,
  ): Promise<T | ExpiredArtifact | null> => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    try {
      await ready();
      const handle = await openArtifact(dir, id);
      if (handle === null) return expiredMemory.recall(id, clock());
      try {
        const opened = await readArtifactMeta(handle, id);
        if (opened === null) return corrupt(id, operation);
        if (isExpired(opened.meta, clock())) return expiredOf(opened.meta);
        return await use(handle, opened.meta, opened.bodyOffset);
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw fail(operation, error);
    }
  };

  /**
   * Writes an artifact whose metadata `checked` was checked against its body: prunes for room,
   * then writes the staged file (or the body) under the id's lock. Failures are thrown as they
   * come; the caller wraps them.
   */
  const write = async (
    checked: ArtifactMeta,
    byteLength: number,
    body: Uint8Array | undefined,
    file: StagedFile | undefined,
  ): Promise<void> => {
    await ready();
    await quotaLock.run("quota", async () => {
      await pruneFor(checked.scopeHash, byteLength, checked.id);
      reserve(checked.scopeHash, byteLength);
    });
    try {
      await idLock.run(checked.id, async () => {
        try {
          if (file !== undefined) await completeStaged(file, dir, checked, durable, afterWrite);
          else if (body !== undefined) await writeArtifactAtomically(dir, checked, body, durable);
        } catch (error) {
          // The folder was removed under a running store: create it again, once (a body written
          // by its own thread is no longer held, so that commit fails instead).
          if ((error as NodeJS.ErrnoException).code !== "ENOENT" || body === undefined) throw error;
          await mkdir(dir, { recursive: true, mode: 0o700 });
          await writeArtifactAtomically(dir, checked, body, durable);
        }
        index.set(checked.id, checked);
        expiredMemory.forget(checked.id);
      });
    } finally {
      reserve(checked.scopeHash, -byteLength);
    }
  };

  /**
   * put's checks of a staged body's metadata; a body this store no longer holds (written by its
   * own thread) is hashed from its temp file when its sha256 is to be verified.
   */
  const checkStaged = async (
    meta: ArtifactMeta,
    file: StagedFile,
    verify: boolean,
  ): Promise<ArtifactMeta> => {
    if (file.body !== undefined) {
      return checkPut(STORE, meta, file.body, quotaBytes, verify, shareBytes);
    }
    const parsed = checkPutLength(STORE, meta, file.byteLength, quotaBytes, shareBytes);
    if (verify && parsed.sha256 !== (await sha256OfStaged(file))) {
      throw invalidPutMeta(STORE, "meta.sha256 is not the sha256 of the body");
    }
    return parsed;
  };

  const sweepNow = async (now: number): Promise<SweepResult> => {
    await ready();
    return sweepArtifactFolder({
      dir,
      now,
      clock,
      idLock,
      logger,
      onScanned: refreshIndex,
      onRemoved: (meta) => {
        index.delete(meta.id);
        expiredMemory.remember(meta, now);
      },
    });
  };

  /** The running background sweep; a tick while one runs is skipped, so sweeps never pile up. */
  let sweeping: Promise<void> | null = null;
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_FS_SWEEP_INTERVAL_MS;
  const timer =
    sweepIntervalMs > 0
      ? setInterval(() => {
          if (sweeping !== null) return;
          sweeping = sweepNow(clock())
            .then(
              () => undefined,
              (error: unknown) => {
                logger.warn(`[stores:${STORE}] periodic sweep failed`, {
                  dir,
                  error: String(error),
                });
              },
            )
            .finally(() => {
              sweeping = null;
            });
        }, sweepIntervalMs)
      : null;
  timer?.unref();

  return {
    name: STORE,
    capabilities: { persistent: true, shared: true, quota: true, staging: true },

    async put(meta, body) {
      try {
        lifecycle.assertOpen("put");
        const checked = checkPut(STORE, meta, body, quotaBytes, true, shareBytes);
        await write(checked, body.byteLength, body, undefined);
      } catch (error) {
        throw fail("put", error);
      }
    },

    stage(body) {
      if (lifecycle.disposed) {
        return createStagedHandle(STORE, {
          commit: async () => lifecycle.assertOpen("commit"),
          discard: async () => {},
        });
      }
      // Once the folder is prepared, the body's writes start before stage() returns (stageBody).
      // No closure here refers to `body`: a body written by its own thread (file.body unset) is
      // then held by nothing of this store.
      const file = stageBody(dir, body, "staged", prepared ? undefined : ready, writeLargeBody);
      staged.add(file);
      const drop = async () => {
        staged.delete(file);
        await discardStaged(file);
      };
      return createStagedHandle(STORE, {
        async commit(meta, commitOptions) {
          try {
            lifecycle.assertOpen("commit");
            const verify = commitOptions?.sha256FromBody !== true;
            const checked = await checkStaged(meta, file, verify);
            await write(checked, file.byteLength, file.body, file);
            staged.delete(file);
          } catch (error) {
            throw fail("commit", error);
          }
        },
        discard: drop,
      });
    },

    get(id) {
      return readLive(id, "get", async (handle, meta, bodyOffset) => {
        // Not zero-filled: a short read is reported as damaged, so no unwritten byte is ever served.
        const body = Buffer.allocUnsafeSlow(meta.byteLength);
        if (meta.byteLength > 0) {
          const { bytesRead } = await handle.read(body, 0, meta.byteLength, bodyOffset);
          if (bytesRead !== meta.byteLength) return corrupt(id, "get");
        }
        if (sha256Hex(body) !== meta.sha256) return corrupt(id, "get");
        return { meta, body };
      });
    },

    head(id) {
      return readLive(id, "head", async (_handle, meta) => meta);
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      try {
        await ready();
        await idLock.run(id, async () => {
          await unlinkArtifact(dir, id);
          index.delete(id);
          expiredMemory.forget(id);
        });
      } catch (error) {
        throw fail("delete", error);
      }
    },

    async sweep(now) {
      lifecycle.assertOpen("sweep");
      try {
        return await sweepNow(now ?? clock());
      } catch (error) {
        throw fail("sweep", error);
      }
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      if (timer !== null) clearInterval(timer);
      const pending = [...staged];
      staged.clear();
      await Promise.all(pending.map(discardStaged));
      await Promise.all(cleanups);
      await sweeping;
      await preparing?.catch(() => undefined);
    },
  };
}
