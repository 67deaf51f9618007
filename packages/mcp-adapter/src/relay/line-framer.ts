const NEWLINE = 0x0a;

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
  /** Receives each complete line under the cap, without its newline (a trailing CR is kept). */
  onLine: (line: Buffer) => void;
  /** Receives the size, head and tail of each line over the cap once its newline arrives. */
  onOversizedLine: (line: OversizedLine) => void;
}

/** A newline framer fed with stream chunks; see {@link createLineFramer}. */
export interface LineFramer {
  push(chunk: Buffer): void;
  /** Delivers a partial line as if its newline had arrived (a stream that ended without one). */
  flush(): void;
  /** Drops a partial line (after the stream ended or was restarted). */
  reset(): void;
  /** Bytes of the partial line held so far. */
  readonly pendingBytes: number;
}

/**
 * Splits a byte stream into newline-terminated lines in linear time: each chunk is scanned once,
 * only from where the previous scan stopped, and a line's chunks are joined once when its newline
 * arrives (never a growing buffer re-concatenated per chunk, which is quadratic: SDK-NOTES.md 7).
 * A line over `maxLineBytes` is discarded as it streams in, keeping only its byte count, head and
 * tail, so memory stays bounded by the cap whatever the sender writes.
 */
export function createLineFramer(options: LineFramerOptions): LineFramer {
  const edgeBytes = options.edgeBytes ?? 512;
  let chunks: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  let head: Buffer = Buffer.alloc(0);
  let tail: Buffer = Buffer.alloc(0);

  function keepTail(piece: Buffer): void {
    tail =
      piece.length >= edgeBytes
        ? Buffer.from(piece.subarray(piece.length - edgeBytes))
        : Buffer.concat([tail, piece]).subarray(-edgeBytes);
  }

  function startOversized(piece: Buffer): void {
    const pieces = [...chunks, piece];
    head = Buffer.from(Buffer.concat(takeEdge(pieces, edgeBytes)).subarray(0, edgeBytes));
    const lastPieces = takeEdge([...pieces].reverse(), edgeBytes).reverse();
    tail = Buffer.from(Buffer.concat(lastPieces).subarray(-edgeBytes));
    chunks = [];
    oversized = true;
  }

  function append(piece: Buffer): void {
    if (piece.length === 0) return;
    pendingBytes += piece.length;
    if (oversized) {
      keepTail(piece);
    } else if (pendingBytes > options.maxLineBytes) {
      startOversized(piece);
    } else {
      chunks.push(piece);
    }
  }

  function finishLine(): void {
    if (oversized) {
      const line = { byteLength: pendingBytes, head, tail };
      reset();
      options.onOversizedLine(line);
      return;
    }
    const line = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, pendingBytes);
    reset();
    options.onLine(line);
  }

  function reset(): void {
    chunks = [];
    pendingBytes = 0;
    oversized = false;
    head = Buffer.alloc(0);
    tail = Buffer.alloc(0);
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
        append(chunk.subarray(start, index));
        finishLine();
        start = index + 1;
      }
    },
    flush(): void {
      if (pendingBytes > 0) finishLine();
    },
    reset,
    get pendingBytes() {
      return pendingBytes;
    },
  };
}

/** The fewest leading pieces that hold at least `bytes` bytes (all of them when they hold less). */
function takeEdge(pieces: readonly Buffer[], bytes: number): Buffer[] {
  const taken: Buffer[] = [];
  let held = 0;
  for (const piece of pieces) {
    if (held >= bytes) break;
    taken.push(piece);
    held += piece.length;
  }
  return taken;
}
