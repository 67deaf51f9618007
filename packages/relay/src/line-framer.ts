const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);
/**
 * The first buffer of a line that outgrew the retained one (grown by GROWTH_FACTOR from there):
 * a pipe read, so a small line split by a chunk costs no more than its own size rounded up.
 */
const MIN_GROWING_BYTES = 64 * 1024;
/**
 * How much a line's own buffer grows when full: 4x copies a 50 MiB line's bytes 0.4 times more
 * on the way (64 KiB + 256 KiB + ... + 16 MiB), where 2x copies them 1.2 times more; the pages of
 * the last buffer past the line are never touched.
 */
const GROWTH_FACTOR = 4;
/** Headroom of a line buffer sized after a line, so a slightly longer next line still fits. */
const BUFFER_HEADROOM = 1.25;

/** What the framer keeps of a line that went over the cap: its size, first and last bytes. */
export interface OversizedLine {
  /** Bytes of the whole line, newline excluded. */
  byteLength: number;
  /** The first `edgeBytes` bytes of the line. */
  head: Buffer;
  /** The last `edgeBytes` bytes of the line (where SDK servers write the JSON-RPC `id`). */
  tail: Buffer;
}

/** Options of {@link createLineFramer}. */
export interface LineFramerOptions {
  /** A line longer than this many bytes (newline excluded) is not assembled. */
  maxLineBytes: number;
  /** How many bytes of an oversized line's start and end are kept; default 512. */
  edgeBytes?: number;
  /**
   * After a line that spanned chunks, a line buffer of its size (plus a quarter) is kept for the
   * next lines, if that is at most this many bytes: they are copied into memory that is already
   * mapped and decoded once (a fresh 50 MiB allocation costs about a third of a JSON.parse of
   * 50 MiB in page faults). Default 0: no buffer is kept, a line spanning chunks grows a buffer
   * of its own. {@link LineFramer.releaseBuffer} and {@link LineFramer.reset} release it.
   */
  retainedBufferBytes?: number;
  /** Receives each complete line under the cap, decoded as UTF-8, without its newline (a trailing CR is kept). */
  onLine: (line: string) => void;
  /** Receives the size, head and tail of each line over the cap once its newline arrives. */
  onOversizedLine: (line: OversizedLine) => void;
}

/** A newline framer fed with stream chunks; see {@link createLineFramer}. */
export interface LineFramer {
  push(chunk: Buffer): void;
  /** Delivers a partial line as if its newline had arrived (a stream that ended without one). */
  flush(): void;
  /** Drops a partial line (after the stream ended or was restarted) and releases the line buffer. */
  reset(): void;
  /** Releases a retained line buffer; one holding a partial line is released after that line. */
  releaseBuffer(): void;
  /** Bytes of the line buffer held, retained or in use. */
  readonly bufferBytes: number;
  /** Bytes of the partial line held so far. */
  readonly pendingBytes: number;
}

/**
 * Splits a byte stream into newline-terminated lines in linear time: each chunk is scanned once,
 * only from where the previous scan stopped, and a line inside one chunk is decoded in place.
 * A line spanning chunks is copied into the retained line buffer while it fits; past the buffer
 * (or without one) into a buffer of its own that grows fourfold when full (never a buffer
 * re-concatenated per chunk, which is quadratic: docs/sdk-notes.md 7), so no chunk is kept and
 * nothing of the line is in the JS heap until its newline. Either way the line is decoded once,
 * whole, so a multi-byte UTF-8 character split by a chunk is never split in the text; then a grown
 * buffer is released at once (see release), not left to the next full garbage collection while
 * the caller parses. A line over `maxLineBytes` is discarded as it streams in, keeping only its
 * byte count, head and tail, so memory stays bounded by the cap whatever the sender writes.
 * Limits: a line of N bytes that outgrew the buffer is copied again on the way, at most about
 * 1.3N bytes (0.4N for a 50 MiB line), into buffers released as they are outgrown; then N more
 * bytes for its string.
 */
export function createLineFramer(options: LineFramerOptions): LineFramer {
  const edgeBytes = options.edgeBytes ?? 512;
  const retainedBufferBytes = options.retainedBufferBytes ?? 0;
  /** The retained line buffer: a partial line is copied here while it fits. */
  let buffer: Buffer = EMPTY;
  /**
   * The partial line once it outgrew the retained buffer: copied into this buffer as it arrives
   * (the chunks themselves are not kept), grown by GROWTH_FACTOR when full; decoded once at its
   * newline.
   */
  let growing: Buffer | undefined;
  let pendingBytes = 0;
  let oversized = false;
  let head: Buffer = EMPTY;
  let tail: Buffer = EMPTY;
  let releaseAfterLine = false;

  function append(piece: Buffer): void {
    if (piece.length === 0) return;
    const held = pendingBytes;
    pendingBytes += piece.length;
    if (head.length < edgeBytes) head = firstBytes([head, piece], edgeBytes);
    tail = lastBytes([tail, piece], edgeBytes);
    if (oversized) return;
    if (pendingBytes > options.maxLineBytes) {
      oversized = true;
      if (growing !== undefined) release(growing);
      growing = undefined;
      return;
    }
    const target = growing ?? buffer;
    if (pendingBytes <= target.length) {
      piece.copy(target, held);
      return;
    }
    const capacity = Math.min(
      options.maxLineBytes,
      Math.max(pendingBytes, GROWTH_FACTOR * target.length, MIN_GROWING_BYTES),
    );
    const grown = Buffer.allocUnsafeSlow(capacity);
    target.copy(grown, 0, 0, held);
    piece.copy(grown, held);
    if (growing !== undefined) release(growing);
    growing = grown;
  }

  /** The line decoded once; a grown buffer is released at once after (see release). */
  function assembled(): string {
    if (growing === undefined) return decode(buffer.subarray(0, pendingBytes));
    const line = decode(growing.subarray(0, pendingBytes));
    release(growing);
    growing = undefined;
    return line;
  }

  /** The buffer the next line is copied into: sized after this one when it outgrew the buffer. */
  function keepBuffer(lineBytes: number, outgrown: boolean): void {
    if (releaseAfterLine) buffer = EMPTY;
    else if (outgrown) {
      const capacity = Math.ceil(lineBytes * BUFFER_HEADROOM);
      buffer = capacity <= retainedBufferBytes ? Buffer.allocUnsafeSlow(capacity) : EMPTY;
    }
    releaseAfterLine = false;
  }

  function finishLine(): void {
    const outgrown = growing !== undefined;
    const line = oversized ? { byteLength: pendingBytes, head, tail } : assembled();
    const lineBytes = pendingBytes;
    clear();
    keepBuffer(lineBytes, outgrown);
    if (typeof line === "string") options.onLine(line);
    else options.onOversizedLine(line);
  }

  function clear(): void {
    if (growing !== undefined) release(growing);
    growing = undefined;
    pendingBytes = 0;
    oversized = false;
    head = EMPTY;
    tail = EMPTY;
  }

  return {
    push(chunk: Buffer): void {
      let start = 0;
      while (start <= chunk.length) {
        const index = chunk.indexOf(NEWLINE, start);
        if (index === -1) {
          append(chunk.subarray(start));
          return;
        }
        if (pendingBytes === 0 && index - start <= options.maxLineBytes) {
          // The whole line is inside this chunk and under the cap: decode it in place.
          options.onLine(decode(chunk.subarray(start, index)));
        } else {
          append(chunk.subarray(start, index));
          finishLine();
        }
        start = index + 1;
      }
    },
    flush(): void {
      if (pendingBytes > 0) finishLine();
    },
    reset(): void {
      clear();
      buffer = EMPTY;
      releaseAfterLine = false;
    },
    releaseBuffer(): void {
      if (pendingBytes === 0) buffer = EMPTY;
      else releaseAfterLine = true;
    },
    get pendingBytes() {
      return pendingBytes;
    },
    get bufferBytes() {
      return buffer.length;
    },
  };
}

/**
 * Frees the memory of a buffer this module allocated and no longer reads, at the next scavenge
 * rather than at the next full garbage collection: its memory moves to a new, unreferenced
 * ArrayBuffer (transferred by structuredClone), which dies young; `bytes` is left detached.
 */
function release(bytes: Buffer): void {
  structuredClone(bytes.buffer, { transfer: [bytes.buffer as ArrayBuffer] });
}

/**
 * UTF-8 text of the bytes, as a string in the JS heap. Not latin1 for an ASCII line, though that
 * decodes as fast: Node makes a large latin1 string external, allocated as old, so it outlives
 * its line until the next full garbage collection (50 MiB more at the peak of a 50 MiB result),
 * while a heap string that is dropped goes at the next scavenge.
 */
function decode(bytes: Buffer): string {
  return bytes.toString("utf8");
}

/** The first `count` bytes of the concatenated pieces, copied. */
function firstBytes(pieces: readonly Buffer[], count: number): Buffer {
  return Buffer.concat(pieces, Math.min(count, byteLengthOf(pieces)));
}

/** The last `count` bytes of the concatenated pieces, copied. */
function lastBytes(pieces: readonly Buffer[], count: number): Buffer {
  const last = pieces[pieces.length - 1] ?? EMPTY;
  if (last.length >= count) return Buffer.from(last.subarray(last.length - count));
  const joined = Buffer.concat(pieces);
  return joined.subarray(Math.max(0, joined.length - count));
}

function byteLengthOf(pieces: readonly Buffer[]): number {
  let bytes = 0;
  for (const piece of pieces) bytes += piece.length;
  return bytes;
}
