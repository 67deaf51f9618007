import { type FileHandle, mkdir, readdir, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pipeline } from "node:stream";
import { assertValidArtifactId, isValidArtifactId } from "../artifact-id.js";
import { createKeyedLock } from "../shared/keyed-lock.js";
import { createLifecycle } from "../shared/lifecycle.js";
import { SILENT_STORE_LOGGER, type StoreLogger } from "../shared/logger.js";
import { checkMetaForBody, isExpired, sha256Hex } from "../shared/meta.js";
import { createVerifyingStream } from "../shared/verifying-stream.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta, ArtifactStore, StoreUsage, SweepResult } from "../types.js";
import {
  ARTIFACT_FILE_SUFFIX,
  artifactPath,
  openArtifact,
  readHeader,
  TEMP_FILE_PREFIX,
  writeArtifactAtomically,
} from "./artifact-file.js";

/** Options of `createFsStore`. */
export interface FsStoreOptions {
  /** The root folder; created (with its parents) with mode 0700 when missing. */
  dir: string;
  /** Byte cap over all bodies (default 1 GiB). A put prunes expired, then oldest artifacts. */
  quotaBytes?: number;
  /** Period of the background sweep in ms (default 60 000; 0 turns it off). The timer is unref'd. */
  sweepIntervalMs?: number;
  /** Milliseconds since the epoch; decides expiry (default Date.now). */
  clock?: () => number;
  /** Flush each artifact to disk before it becomes visible (default true). */
  durable?: boolean;
  /** Where background problems (a failed sweep, a corrupt file) are reported; silent by default. */
  logger?: StoreLogger;
}

/** The filesystem store's default byte quota: 1 GiB. */
export const DEFAULT_FS_QUOTA_BYTES = 1024 * 1024 * 1024;
/** The filesystem store's default sweep period: one minute. */
export const DEFAULT_FS_SWEEP_INTERVAL_MS = 60_000;
/** A temp file older than this is a crashed write and is removed by sweep. */
const STALE_TEMP_FILE_MS = 60 * 60 * 1000;

const STORE = "fs";

interface IndexEntry {
  byteLength: number;
  createdAt: number;
  expiresAt: number;
}

/**
 * A store in one local folder: one file per artifact (metadata header + body, see
 * artifact-file.ts), written to a temp file and renamed into place, so a crash never leaves a
 * readable half artifact. Files are 0600, a created folder 0700. A new store over the same folder
 * serves earlier artifacts; several stores (processes) on one host may share a folder, with the
 * quota accounted per store and re-read from disk at every sweep and usage call. Reads check size
 * and sha256 so a damaged file is reported to the logger and never served.
 */
export function createFsStore(options: FsStoreOptions): ArtifactStore {
  const dir = resolve(options.dir);
  const quotaBytes = options.quotaBytes ?? DEFAULT_FS_QUOTA_BYTES;
  const clock = options.clock ?? Date.now;
  const durable = options.durable ?? true;
  const logger = options.logger ?? SILENT_STORE_LOGGER;
  const lifecycle = createLifecycle(STORE);
  const idLock = createKeyedLock();
  const quotaLock = createKeyedLock();
  const index = new Map<string, IndexEntry>();
  let reservedBytes = 0;

  const fail = (operation: string, cause: unknown): StoreError =>
    StoreError.isInstance(cause)
      ? cause
      : new StoreError({ code: "STORE_UNAVAILABLE", store: STORE, operation, cause });

  const corrupt = (id: string, operation: string): null => {
    logger.warn(`[stores:${STORE}] ${operation}: skipped a damaged artifact file`, { id, dir });
    return null;
  };

  /** Reads every artifact header of the folder. */
  const scan = async (): Promise<{ metas: ArtifactMeta[]; damaged: string[]; temps: string[] }> => {
    const names = await readdir(dir);
    const metas: ArtifactMeta[] = [];
    const damaged: string[] = [];
    const temps: string[] = [];
    for (const fileName of names) {
      if (fileName.startsWith(TEMP_FILE_PREFIX)) temps.push(fileName);
      if (!fileName.endsWith(ARTIFACT_FILE_SUFFIX)) continue;
      const id = fileName.slice(0, -ARTIFACT_FILE_SUFFIX.length);
      if (!isValidArtifactId(id)) continue;
      const handle = await openArtifact(dir, id);
      if (handle === null) continue;
      try {
        const opened = await readHeader(handle, id);
        if (opened === null) damaged.push(id);
        else metas.push(opened.meta);
      } finally {
        await handle.close();
      }
    }
    return { metas, damaged, temps };
  };

  /** Replaces the quota index with what is on disk (other processes may share the folder). */
  const refreshIndex = (metas: ArtifactMeta[]): void => {
    index.clear();
    for (const meta of metas) index.set(meta.id, meta);
  };

  const ready = (async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    refreshIndex((await scan()).metas);
  })();
  ready.catch(() => undefined);

  const unlinkQuietly = async (path: string): Promise<void> => {
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  };

  /** Frees room for `incoming` bytes: expired first, then oldest. Caller holds the quota lock. */
  const pruneFor = async (incoming: number, replacing: string): Promise<void> => {
    const used = () => {
      let total = reservedBytes;
      for (const [id, entry] of index) if (id !== replacing) total += entry.byteLength;
      return total;
    };
    if (used() + incoming <= quotaBytes) return;
    const now = clock();
    const candidates = [...index.entries()]
      .filter(([id]) => id !== replacing)
      .sort(
        ([leftId, left], [rightId, right]) =>
          Number(isExpired(right, now)) - Number(isExpired(left, now)) ||
          left.createdAt - right.createdAt ||
          leftId.localeCompare(rightId),
      );
    for (const [id] of candidates) {
      if (used() + incoming <= quotaBytes) return;
      await idLock.run(id, async () => {
        await unlinkQuietly(artifactPath(dir, id));
        index.delete(id);
      });
    }
  };

  /**
   * Opens the live artifact `id` and hands its handle to `use`; closes the handle afterwards
   * unless `keepsHandle` (a stream that closes it itself).
   */
  const readLive = async <T>(
    id: string,
    operation: string,
    keepsHandle: boolean,
    use: (handle: FileHandle, meta: ArtifactMeta, bodyOffset: number) => Promise<T>,
  ): Promise<T | null> => {
    lifecycle.assertOpen(operation);
    assertValidArtifactId(id, STORE, operation);
    try {
      await ready;
      const handle = await openArtifact(dir, id);
      if (handle === null) return null;
      let handedOver = false;
      try {
        const opened = await readHeader(handle, id);
        if (opened === null) return corrupt(id, operation);
        if (isExpired(opened.meta, clock())) return null;
        const result = await use(handle, opened.meta, opened.bodyOffset);
        handedOver = keepsHandle;
        return result;
      } finally {
        if (!handedOver) await handle.close();
      }
    } catch (error) {
      throw fail(operation, error);
    }
  };

  const sweepNow = async (now: number): Promise<SweepResult> => {
    await ready;
    const { metas, damaged, temps } = await scan();
    refreshIndex(metas);
    let removed = 0;
    let freedBytes = 0;
    for (const meta of metas) {
      if (!isExpired(meta, now)) continue;
      const freed = await idLock.run(meta.id, async () => {
        const handle = await openArtifact(dir, meta.id);
        if (handle === null) return null;
        try {
          const current = await readHeader(handle, meta.id);
          if (current !== null && !isExpired(current.meta, now)) return null;
          await unlinkQuietly(artifactPath(dir, meta.id));
          index.delete(meta.id);
          return current?.meta.byteLength ?? 0;
        } finally {
          await handle.close();
        }
      });
      if (freed === null) continue;
      removed += 1;
      freedBytes += freed;
    }
    for (const id of damaged) {
      logger.warn(`[stores:${STORE}] sweep: removed a damaged artifact file`, { id, dir });
      await idLock.run(id, () => unlinkQuietly(artifactPath(dir, id)));
    }
    for (const fileName of temps) {
      const path = join(dir, fileName);
      const stats = await stat(path).catch(() => null);
      if (stats !== null && clock() - stats.mtimeMs > STALE_TEMP_FILE_MS) await unlinkQuietly(path);
    }
    return { removed, freedBytes };
  };

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_FS_SWEEP_INTERVAL_MS;
  const timer =
    sweepIntervalMs > 0
      ? setInterval(() => {
          sweeping = sweepNow(clock()).catch((error: unknown) => {
            logger.warn(`[stores:${STORE}] periodic sweep failed`, { dir, error: String(error) });
          });
        }, sweepIntervalMs)
      : null;
  timer?.unref();

  return {
    name: STORE,
    capabilities: { persistent: true, shared: true, quota: true },

    async put(meta, body) {
      lifecycle.assertOpen("put");
      assertValidArtifactId(meta.id, STORE, "put");
      const checked = checkMetaForBody(meta, body, STORE);
      if (body.byteLength > quotaBytes) {
        throw new StoreError({
          code: "QUOTA_EXCEEDED",
          store: STORE,
          operation: "put",
          message: `[stores:${STORE}] put failed: ${body.byteLength} bytes exceed the quota of ${quotaBytes}`,
        });
      }
      try {
        await ready;
        await quotaLock.run("quota", async () => {
          await pruneFor(body.byteLength, checked.id);
          reservedBytes += body.byteLength;
        });
        try {
          await idLock.run(checked.id, async () => {
            try {
              await writeArtifactAtomically(dir, checked, body, durable);
            } catch (error) {
              // The folder was removed under a running store: create it again, once.
              if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
              await mkdir(dir, { recursive: true, mode: 0o700 });
              await writeArtifactAtomically(dir, checked, body, durable);
            }
            index.set(checked.id, checked);
          });
        } finally {
          reservedBytes -= body.byteLength;
        }
      } catch (error) {
        throw fail("put", error);
      }
    },

    get(id) {
      return readLive(id, "get", false, async (handle, meta, bodyOffset) => {
        const body = Buffer.alloc(meta.byteLength);
        if (meta.byteLength > 0) {
          const { bytesRead } = await handle.read(body, 0, meta.byteLength, bodyOffset);
          if (bytesRead !== meta.byteLength) return corrupt(id, "get");
        }
        if (sha256Hex(body) !== meta.sha256) return corrupt(id, "get");
        return { meta, body };
      });
    },

    getStream(id) {
      return readLive(id, "getStream", true, async (handle, meta, bodyOffset) => {
        const source = handle.createReadStream({ start: bodyOffset, autoClose: true });
        const verifier = createVerifyingStream(meta, () => {
          logger.warn(`[stores:${STORE}] getStream: a damaged artifact file`, { id, dir });
          return new StoreError({
            code: "STORE_UNAVAILABLE",
            store: STORE,
            operation: "getStream",
            message: `[stores:${STORE}] getStream failed: the body does not match its metadata`,
          });
        });
        pipeline(source, verifier, () => undefined);
        return { meta, body: verifier };
      });
    },

    head(id) {
      return readLive(id, "head", false, async (_handle, meta) => meta);
    },

    async delete(id) {
      lifecycle.assertOpen("delete");
      assertValidArtifactId(id, STORE, "delete");
      try {
        await ready;
        await idLock.run(id, async () => {
          await unlinkQuietly(artifactPath(dir, id));
          index.delete(id);
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

    async usage(): Promise<StoreUsage> {
      lifecycle.assertOpen("usage");
      try {
        await ready;
        const { metas } = await scan();
        return {
          count: metas.length,
          bytes: metas.reduce((sum, meta) => sum + meta.byteLength, 0),
        };
      } catch (error) {
        throw fail("usage", error);
      }
    },

    async dispose() {
      if (!lifecycle.markDisposed()) return;
      if (timer !== null) clearInterval(timer);
      await sweeping;
      await ready.catch(() => undefined);
    },
  };
}
