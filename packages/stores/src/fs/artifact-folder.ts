import { readdir, unlink } from "node:fs/promises";
import { isValidArtifactId } from "../artifact-id.js";
import type { ArtifactMeta } from "../types.js";
import {
  ARTIFACT_FILE_SUFFIX,
  artifactPath,
  openArtifact,
  readArtifactMeta,
  TEMP_FILE_PREFIX,
} from "./artifact-file.js";

/** What the artifact file of one id holds now: nothing, a damaged file, or an artifact. */
export type ArtifactFileState =
  | { state: "missing" }
  | { state: "damaged" }
  | { state: "complete"; meta: ArtifactMeta };

/** Opens the artifact file of `id`, checks its header, and closes it again. */
export async function readArtifactFileState(dir: string, id: string): Promise<ArtifactFileState> {
  const handle = await openArtifact(dir, id);
  if (handle === null) return { state: "missing" };
  try {
    const opened = await readArtifactMeta(handle, id);
    return opened === null ? { state: "damaged" } : { state: "complete", meta: opened.meta };
  } finally {
    await handle.close();
  }
}

/** Every artifact file of a folder, by state, and the temp files of writes in flight or crashed. */
export interface FolderScan {
  metas: ArtifactMeta[];
  /** Ids whose file is not a complete artifact. */
  damaged: string[];
  /** File names of temp files. */
  temps: string[];
}

/** Reads every artifact header of `dir`; files that are neither artifacts nor temp files are ignored. */
export async function scanArtifactFolder(dir: string): Promise<FolderScan> {
  const scan: FolderScan = { metas: [], damaged: [], temps: [] };
  for (const fileName of await readdir(dir)) {
    if (fileName.startsWith(TEMP_FILE_PREFIX)) scan.temps.push(fileName);
    if (!fileName.endsWith(ARTIFACT_FILE_SUFFIX)) continue;
    const id = fileName.slice(0, -ARTIFACT_FILE_SUFFIX.length);
    if (!isValidArtifactId(id)) continue;
    const file = await readArtifactFileState(dir, id);
    if (file.state === "damaged") scan.damaged.push(id);
    if (file.state === "complete") scan.metas.push(file.meta);
  }
  return scan;
}

/** Removes a file; one that is already gone is not an error. */
export async function unlinkQuietly(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

/** Removes the artifact file of `id`. */
export function unlinkArtifact(dir: string, id: string): Promise<void> {
  return unlinkQuietly(artifactPath(dir, id));
}
