import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { KeyedLock } from "../shared/keyed-lock.js";
import type { StoreLogger } from "../shared/logger.js";
import { isExpired } from "../shared/meta.js";
import type { ArtifactMeta, SweepResult } from "../types.js";
import {
  readArtifactFileState,
  scanArtifactFolder,
  unlinkArtifact,
  unlinkQuietly,
} from "./artifact-folder.js";

/** A temp file older than this is a crashed write and is removed by sweep. */
const STALE_TEMP_FILE_MS = 60 * 60 * 1000;

/** What one sweep of an artifact folder works with. */
export interface FolderSweepOptions {
  dir: string;
  /** Artifacts expired at this time are removed. */
  now: number;
  /** The store's clock, compared with temp files' modification times. */
  clock: () => number;
  /** The store's per-id lock: every removal is checked again and done under it. */
  idLock: KeyedLock;
  logger: StoreLogger;
  /** Gets every complete artifact the scan found, before anything is removed. */
  onScanned(metas: ArtifactMeta[]): void;
  /** Told about each expired artifact the sweep removed (as it was on disk). */
  onRemoved(meta: ArtifactMeta): void;
}

/**
 * Removes the expired artifacts of a folder, its damaged artifact files (reported to the logger)
 * and temp files older than an hour. Each removal re-reads the file under the id's lock, so a
 * put that replaced it since the scan is never undone.
 */
export async function sweepArtifactFolder(options: FolderSweepOptions): Promise<SweepResult> {
  const { dir, now, idLock, logger } = options;
  const { metas, damaged, temps } = await scanArtifactFolder(dir);
  options.onScanned(metas);
  let removed = 0;
  let freedBytes = 0;
  for (const meta of metas) {
    if (!isExpired(meta, now)) continue;
    const freed = await idLock.run(meta.id, async () => {
      const file = await readArtifactFileState(dir, meta.id);
      if (file.state === "missing") return null;
      if (file.state === "complete" && !isExpired(file.meta, now)) return null;
      await unlinkArtifact(dir, meta.id);
      options.onRemoved(file.state === "complete" ? file.meta : meta);
      return file.state === "complete" ? file.meta.byteLength : 0;
    });
    if (freed === null) continue;
    removed += 1;
    freedBytes += freed;
  }
  for (const id of damaged) {
    await idLock.run(id, async () => {
      if ((await readArtifactFileState(dir, id)).state !== "damaged") return;
      logger.warn("[stores:fs] sweep: removed a damaged artifact file", { id, dir });
      await unlinkArtifact(dir, id);
    });
  }
  for (const fileName of temps) {
    const path = join(dir, fileName);
    const stats = await stat(path).catch(() => null);
    if (stats !== null && options.clock() - stats.mtimeMs > STALE_TEMP_FILE_MS) {
      await unlinkQuietly(path);
    }
  }
  return { removed, freedBytes };
}
