import { StringDecoder } from "node:string_decoder";

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
  /**
   * Receives each complete line under the cap, decoded as UTF-8, without its newline (a trailing
   * CR is kept). Chunks are decoded as they arrive, so only one join remains after the newline.
   */
  onLine: (line: string) => void;
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
 * only from where the previous scan stopped, decoded as it arrives, and a line's decoded pieces
 * are joined once when its newline arrives (never a growing buffer re-concatenated per chunk,
 * which is quadratic: SDK-NOTES.md 7; no byte-level join and second decode after the newline).
 * A line over `maxLineBytes` is discarded as it streams in, keeping only its byte count, head and
 * tail, so memory stays bounded by the cap whatever the sender writes.
 */
export function createLineFramer(options: LineFramerOptions): LineFramer {
  const edgeBytes = options.edgeBytes ?? 512;
  /** The line so far, decoded piece by piece (a newline byte never splits a UTF-8 character). */
  let texts: string[] = [];
  let decoder = new StringDecoder("utf8");
  /** The first pieces of the line until they hold edgeBytes, and the last ones that do. */
  let firstPieces: Buffer[] = [];
  let firstBytes = 0;
  let lastPieces: Buffer[] = [];
  let lastBytes = 0;
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

  function rememberEdges(piece: Buffer): void {
    if (firstBytes < edgeBytes) {
      firstPieces.push(piece);
      firstBytes += piece.length;
    }
    lastPieces.push(piece);
    lastBytes += piece.length;
    while (lastPieces.length > 1 && lastBytes - lastPieces[0]!.length >= edgeBytes) {
      lastBytes -= lastPieces.shift()!.length;
    }
  }

  function startOversized(): void {
    head = Buffer.from(Buffer.concat(firstPieces).subarray(0, edgeBytes));
    tail = Buffer.from(Buffer.concat(lastPieces).subarray(-edgeBytes));
    texts = [];
    decoder = new StringDecoder("utf8");
    firstPieces = [];
    lastPieces = [];
    oversized = true;
  }

  function append(piece: Buffer): void {
    if (piece.length === 0) return;
    pendingBytes += piece.length;
    if (oversized) {
      keepTail(piece);
      return;
    }
    rememberEdges(piece);
    if (pendingBytes > options.maxLineBytes) {
      startOversized();
      return;
    }
    texts.push(decoder.write(piece));
  }

  function finishLine(): void {
    if (oversized) {
      const line = { byteLength: pendingBytes, head, tail };
      reset();
      options.onOversizedLine(line);
      return;
    }
    const rest = decoder.end();
    if (rest !== "") texts.push(rest);
    const line = texts.length === 1 ? texts[0]! : texts.join("");
    reset();
    options.onLine(line);
  }

  function reset(): void {
    texts = [];
    decoder = new StringDecoder("utf8");
    firstPieces = [];
    firstBytes = 0;
    lastPieces = [];
    lastBytes = 0;
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
