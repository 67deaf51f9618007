import { createHash, randomBytes } from "node:crypto";
import { close, fdatasync, openSync, write } from "node:fs";
import { type FileHandle, link, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { parseArtifactMetaJson } from "../shared/meta.js";
import type { ArtifactMeta } from "../types.js";
import { THIS_WRITER } from "./temp-files.js";
import { WRITE_OFF_THREAD_MIN_BYTES, writeOffThread } from "./write-off-thread.js";

/**
 * One artifact is one file: the body, then the metadata as UTF-8 JSON, then the metadata's length
 * (uint32 big-endian) and the 4-byte magic `BMA2`. Keeping both in one file, written to a temp
 * file and renamed into place, is what keeps metadata and body from ever disagreeing; putting
 * the body first lets a store start writing it before the metadata is known (see stageBody).
 */
const MAGIC = Buffer.from("BMA2", "latin1");
const TRAILER_BYTES = 8;
/** Metadata larger than this is treated as corrupt. */
const MAX_META_BYTES = 1024 * 1024;
/** Suffix of a complete artifact file. */
export const ARTIFACT_FILE_SUFFIX = ".artifact";
/** Prefix of a file being written (then the writer, see temp-files.ts); never read as an artifact. */
export const TEMP_FILE_PREFIX = ".tmp-";

/** The file name of the artifact `id` (already validated, so it cannot escape the folder). */
export function artifactPath(dir: string, id: string): string {
  return join(dir, `${id}${ARTIFACT_FILE_SUFFIX}`);
}

/** The bytes that follow the body: metadata JSON, its length, the magic. */
export function encodeTrailer(meta: ArtifactMeta): Buffer {
  const json = Buffer.from(JSON.stringify(meta), "utf8");
  const suffix = Buffer.alloc(TRAILER_BYTES);
  suffix.writeUInt32BE(json.byteLength, 0);
  MAGIC.copy(suffix, 4);
  return Buffer.concat([json, suffix]);
}

/** What an open artifact file holds, before its body is read. */
export interface OpenedArtifact {
  meta: ArtifactMeta;
  /** Byte offset of the body in the file. */
  bodyOffset: number;
}

/**
 * Reads and checks the metadata of an open artifact file: magic, a parsable ArtifactMeta for
 * `id`, and a file size of exactly byteLength + metadata + trailer. Returns null when any check
 * fails (a file that is not a complete artifact is never served).
 */
export async function readArtifactMeta(
  handle: FileHandle,
  id: string,
): Promise<OpenedArtifact | null> {
  const { size } = await handle.stat();
  if (size < TRAILER_BYTES) return null;
  const suffix = Buffer.alloc(TRAILER_BYTES);
  await handle.read(suffix, 0, TRAILER_BYTES, size - TRAILER_BYTES);
  if (!suffix.subarray(4).equals(MAGIC)) return null;
  const metaBytes = suffix.readUInt32BE(0);
  if (metaBytes > MAX_META_BYTES || TRAILER_BYTES + metaBytes > size) return null;
  const json = Buffer.alloc(metaBytes);
  await handle.read(json, 0, metaBytes, size - TRAILER_BYTES - metaBytes);
  const meta = parseArtifactMetaJson(json, id);
  if (meta === null || size !== meta.byteLength + metaBytes + TRAILER_BYTES) return null;
  return { meta, bodyOffset: 0 };
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
 * What completeStaged and discardStaged need of a staged body's open temp file: a FileHandle, or
 * a descriptor opened synchronously (see stageBody).
 */
export interface StagedFileHandle {
  write(
    bytes: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** A body being written to a fresh temp file (mode 0600) before its metadata is known. */
export interface StagedFile {
  /** The body's length: where the metadata goes. */
  byteLength: number;
  /**
   * The body, while this keeps it: unset when a thread of its own writes it (large bodies in
   * shared memory, see stageBody), so nothing here holds the bytes once they are written.
   */
  body?: Uint8Array;
  path: string;
  /** Settles when the body is written; rejects when the file could not be created or written. */
  written: Promise<StagedFileHandle>;
}

/** A StagedFileHandle over a descriptor, which a writing thread can be handed. */
interface DescriptorHandle extends StagedFileHandle {
  fd: number;
}

/**
 * A file descriptor as a StagedFileHandle, over the callback API: each call is handed to the
 * thread pool at once, so writes started before a long synchronous task (a payload's parse) are
 * carried out during it, where a FileHandle from `open()` would only exist after it.
 */
function descriptorHandle(fd: number): DescriptorHandle {
  // Like a FileHandle, closed once: a second close(2) of a number the system may have handed out
  // again would close someone else's file.
  let closing: Promise<void> | undefined;
  const closed = () => new Error("the staged file is closed");
  return {
    fd,
    write: (bytes, offset, length, position) =>
      new Promise((resolve, reject) => {
        if (closing !== undefined) {
          reject(closed());
          return;
        }
        write(fd, bytes, offset, length, position, (error, bytesWritten) => {
          if (error === null) resolve({ bytesWritten });
          else reject(error);
        });
      }),
    datasync: () =>
      new Promise((resolve, reject) => {
        if (closing !== undefined) {
          reject(closed());
          return;
        }
        fdatasync(fd, (error) => (error === null ? resolve() : reject(error)));
      }),
    close: () => {
      closing ??= new Promise((resolve, reject) => {
        close(fd, (error) => (error === null || error === undefined ? resolve() : reject(error)));
      });
      return closing;
    },
  };
}

/**
 * Starts writing `body` to a fresh temp file of `dir` (exclusive create, mode 0600) in the
 * background, after `prepare` (which creates the folder). Without `prepare` (the folder is known
 * to exist) the file is created synchronously (one open(2)) and every write is handed to the
 * thread pool before this returns, so the body is written while the caller's thread is busy
 * (the bounder parses the payload next, for hundreds of milliseconds on a large one); with it,
 * the writes start once `prepare` settles and the event loop runs. A body of
 * WRITE_OFF_THREAD_MIN_BYTES or more in shared memory, staged without `prepare`, is written by a
 * thread of its own that ends when done (writeOffThread), or by `writeLarge` when given (a thread
 * that already holds the bytes, see FsStoreOptions.writeLargeBody), and is not kept in the StagedFile: once
 * the caller drops its references too, the bytes are freed by the next garbage collection, even
 * one during that long synchronous task. Finish it with
 * completeStaged, or drop it with discardStaged; a crash leaves a temp file that is never read
 * and that the next store opened on the folder (or a sweep) removes.
 */
export function stageBody(
  dir: string,
  body: Uint8Array,
  label: string,
  prepare?: () => Promise<void>,
  writeLarge?: (fd: number, bytes: Uint8Array) => Promise<void> | undefined,
): StagedFile {
  const name = `${TEMP_FILE_PREFIX}${THIS_WRITER}-${label}-${randomBytes(6).toString("hex")}`;
  const path = join(dir, name);
  const byteLength = body.byteLength;
  // Without `prepare` the file is created at once; then a large body in shared memory is written
  // by a thread of its own, so nothing here keeps it (StagedFile.body unset).
  const handle = prepare === undefined ? openAtOnce(path) : undefined;
  const released =
    handle !== undefined &&
    body.buffer instanceof SharedArrayBuffer &&
    byteLength >= WRITE_OFF_THREAD_MIN_BYTES
      ? writeReleased(handle, body, writeLarge)
      : undefined;
  const written = released ?? writeKept(path, body, handle, prepare);
  // The caller awaits it in completeStaged or discardStaged; this only keeps an early failure
  // from being reported as unhandled meanwhile.
  written.catch(() => undefined);
  return released === undefined
    ? { byteLength, body, path, written }
    : { byteLength, path, written };
}

/**
 * The temp file created synchronously, or undefined when that failed: the file is then opened
 * again in the background (writeKept), whose failure is what the caller's commit reports.
 */
function openAtOnce(path: string): DescriptorHandle | undefined {
  try {
    return descriptorHandle(openSync(path, "wx", 0o600));
  } catch {
    return undefined;
  }
}

/** The store's `writeLargeBody`, or undefined when it has none, declines or throws. */
function writeGiven(
  writeLarge: ((fd: number, bytes: Uint8Array) => Promise<void> | undefined) | undefined,
  fd: number,
  body: Uint8Array,
): Promise<void> | undefined {
  try {
    return writeLarge?.(fd, body);
  } catch {
    return undefined;
  }
}

/**
 * The body written to the open temp file off this thread, so no promise or callback of this
 * thread holds the bytes: by the store's `writeLargeBody` (the adapter's hashing thread) when it
 * takes them, else by a thread of its own (writeOffThread); undefined when neither could start.
 * Its own function, so no closure here captures the body.
 */
function writeReleased(
  handle: DescriptorHandle,
  body: Uint8Array,
  writeLarge: ((fd: number, bytes: Uint8Array) => Promise<void> | undefined) | undefined,
): Promise<StagedFileHandle> | undefined {
  const writing = writeGiven(writeLarge, handle.fd, body) ?? writeOffThread(handle.fd, body);
  if (writing === undefined) return undefined;
  return writing.then(
    () => handle,
    async (error: unknown) => {
      await handle.close();
      throw error;
    },
  );
}

/**
 * The body written on the thread pool to `opened`, or to a file opened after `prepare`: the
 * promise holds the bytes until then.
 */
async function writeKept(
  path: string,
  body: Uint8Array,
  opened: StagedFileHandle | undefined,
  prepare: (() => Promise<void>) | undefined,
): Promise<StagedFileHandle> {
  let handle: StagedFileHandle;
  if (opened !== undefined) handle = opened;
  else {
    await prepare?.();
    handle = await open(path, "wx", 0o600);
  }
  try {
    await writeWhole(handle, body);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The lowercase hex sha256 of a staged body as written to its temp file (read back in chunks):
 * how a body this store no longer holds is checked against its metadata. Awaits the write.
 */
export async function sha256OfStaged(staged: StagedFile): Promise<string> {
  await staged.written;
  const hash = createHash("sha256");
  const file = await open(staged.path, "r");
  try {
    const chunk = Buffer.allocUnsafe(Math.min(WRITE_CHUNK_BYTES, Math.max(staged.byteLength, 1)));
    for (let at = 0; at < staged.byteLength; ) {
      const { bytesRead } = await file.read(
        chunk,
        0,
        Math.min(chunk.length, staged.byteLength - at),
        at,
      );
      if (bytesRead === 0) throw new Error("the staged file is shorter than its body");
      hash.update(chunk.subarray(0, bytesRead));
      at += bytesRead;
    }
  } finally {
    await file.close();
  }
  return hash.digest("hex");
}

/** The size of each positional write of a body. */
const WRITE_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * Writes all of `bytes` at the start of the file as positional writes of WRITE_CHUNK_BYTES, all
 * started at once: the thread pool carries them out while the calling thread is busy (parsing
 * the payload), where FileHandle.writeFile's 512 KiB writes each wait for the event loop to start
 * the next one. A short write is continued from where it stopped.
 */
async function writeWhole(handle: StagedFileHandle, bytes: Uint8Array): Promise<void> {
  const writeRange = async (start: number, end: number): Promise<void> => {
    let at = start;
    while (at < end) {
      const { bytesWritten } = await handle.write(bytes, at, end - at, at);
      if (bytesWritten === 0) throw new Error("the file system accepted no bytes");
      at += bytesWritten;
    }
  };
  const ranges: Promise<void>[] = [];
  for (let start = 0; start < bytes.byteLength; start += WRITE_CHUNK_BYTES) {
    ranges.push(writeRange(start, Math.min(start + WRITE_CHUNK_BYTES, bytes.byteLength)));
  }
  await Promise.all(ranges);
}

/**
 * A second name (a temp file name of this writer) for the artifact file `target` when there is
 * one, so renaming a new file over it does not free its blocks inside the rename (measured: a
 * 50 MiB file made the rename 28 - 48 ms, 3 ms with the second name kept); undefined when there
 * is none or the file system refuses hard links.
 */
async function keepPrevious(dir: string, target: string): Promise<string | undefined> {
  const name = join(
    dir,
    `${TEMP_FILE_PREFIX}${THIS_WRITER}-replaced-${randomBytes(6).toString("hex")}`,
  );
  try {
    await link(target, name);
    return name;
  } catch {
    return undefined;
  }
}

/**
 * Appends the metadata to a staged body, optionally flushes the file to disk, and renames it
 * over the artifact's file. The temp file is removed when any step fails. The artifact's previous
 * file, when the same id is stored again, is removed after the rename (see keepPrevious): handed
 * to `later` when given (the store awaits it on dispose), so freeing its blocks is not on the
 * caller's path, else awaited here. A crash before that leaves a temp file of this writer, which
 * the next store opened on the folder removes.
 */
export async function completeStaged(
  staged: StagedFile,
  dir: string,
  meta: ArtifactMeta,
  durable: boolean,
  later?: (cleanup: Promise<void>) => void,
): Promise<void> {
  let previous: string | undefined;
  try {
    const handle = await staged.written;
    try {
      const trailer = encodeTrailer(meta);
      await handle.write(trailer, 0, trailer.byteLength, staged.byteLength);
      if (durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    const target = artifactPath(dir, meta.id);
    previous = await keepPrevious(dir, target);
    await rename(staged.path, target);
  } catch (error) {
    await unlink(staged.path).catch(() => undefined);
    if (previous !== undefined) await unlink(previous).catch(() => undefined);
    throw error;
  }
  if (previous === undefined) return;
  const cleanup = unlink(previous).catch(() => undefined);
  if (later === undefined) await cleanup;
  else later(cleanup);
}

/** Drops a staged body: closes and removes its temp file. Never rejects. */
export async function discardStaged(staged: StagedFile): Promise<void> {
  const handle = await staged.written.catch(() => null);
  await handle?.close().catch(() => undefined);
  await unlink(staged.path).catch(() => undefined);
}

/**
 * Writes body and metadata to a fresh temp file, optionally flushes it to disk, and renames it
 * over the artifact's file. A crash at any point leaves either the old file, the new file, or a
 * stray temp file that is never read and that sweep removes.
 */
export function writeArtifactAtomically(
  dir: string,
  meta: ArtifactMeta,
  body: Uint8Array,
  durable: boolean,
): Promise<void> {
  return completeStaged(stageBody(dir, body, meta.id), dir, meta, durable);
}
