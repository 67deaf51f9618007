import { randomBytes } from "node:crypto";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { parseArtifactMetaJson } from "../shared/meta.js";
import type { ArtifactMeta } from "../types.js";

/**
 * One artifact is one file: the 4-byte magic `BMA1`, the header length (uint32 big-endian), the
 * metadata as UTF-8 JSON, then the body. Keeping both in one file, written to a temp file and
 * renamed into place, is what keeps metadata and body from ever disagreeing.
 */
const MAGIC = Buffer.from("BMA1", "latin1");
const PREFIX_BYTES = 8;
/** A header larger than this is treated as corrupt. */
const MAX_HEADER_BYTES = 1024 * 1024;
/** Suffix of a complete artifact file. */
export const ARTIFACT_FILE_SUFFIX = ".artifact";
/** Prefix of a file being written; never read as an artifact. */
export const TEMP_FILE_PREFIX = ".tmp-";

/** The file name of the artifact `id` (already validated, so it cannot escape the folder). */
export function artifactPath(dir: string, id: string): string {
  return join(dir, `${id}${ARTIFACT_FILE_SUFFIX}`);
}

/** The header bytes (magic, length, JSON) for `meta`. */
export function encodeHeader(meta: ArtifactMeta): Buffer {
  const json = Buffer.from(JSON.stringify(meta), "utf8");
  const prefix = Buffer.alloc(PREFIX_BYTES);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32BE(json.byteLength, 4);
  return Buffer.concat([prefix, json]);
}

/** What an open artifact file holds, before its body is read. */
export interface OpenedArtifact {
  meta: ArtifactMeta;
  /** Byte offset of the body in the file. */
  bodyOffset: number;
}

/**
 * Reads and checks the header of an open artifact file: magic, a parsable ArtifactMeta for `id`,
 * and a file size of exactly header + byteLength. Returns null when any check fails (a file that
 * is not a complete artifact is never served).
 */
export async function readHeader(handle: FileHandle, id: string): Promise<OpenedArtifact | null> {
  const { size } = await handle.stat();
  if (size < PREFIX_BYTES) return null;
  const prefix = Buffer.alloc(PREFIX_BYTES);
  await handle.read(prefix, 0, PREFIX_BYTES, 0);
  if (!prefix.subarray(0, 4).equals(MAGIC)) return null;
  const headerBytes = prefix.readUInt32BE(4);
  if (headerBytes > MAX_HEADER_BYTES || PREFIX_BYTES + headerBytes > size) return null;
  const header = Buffer.alloc(headerBytes);
  await handle.read(header, 0, headerBytes, PREFIX_BYTES);
  const meta = parseArtifactMetaJson(header, id);
  const bodyOffset = PREFIX_BYTES + headerBytes;
  if (meta === null || size !== bodyOffset + meta.byteLength) return null;
  return { meta, bodyOffset };
}

/** Opens the artifact file of `id` for reading, or null when there is none. */
export async function openArtifact(dir: string, id: string): Promise<FileHandle | null> {
  try {
    return await open(artifactPath(dir, id), "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Writes header and body to a fresh temp file (mode 0600, exclusive create), optionally flushes
 * it to disk, and renames it over the artifact's file. A crash at any point leaves either the old
 * file, the new file, or a stray temp file that is never read and that sweep removes.
 */
export async function writeArtifactAtomically(
  dir: string,
  meta: ArtifactMeta,
  body: Uint8Array,
  durable: boolean,
): Promise<void> {
  const tempPath = join(dir, `${TEMP_FILE_PREFIX}${meta.id}-${randomBytes(6).toString("hex")}`);
  const handle = await open(tempPath, "wx", 0o600);
  try {
    try {
      await handle.writeFile(encodeHeader(meta));
      await handle.writeFile(body);
      if (durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, artifactPath(dir, meta.id));
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
}
