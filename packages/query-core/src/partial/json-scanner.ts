import { Buffer } from "node:buffer";
import { parseJsonExact } from "../exact/parse-exact.js";

// The JSON bytes the scanner tests for. Module-private constants on purpose: V8 folds these into
// the hot loops, while an exported (or imported) binding is loaded from its module cell at every
// test (measured: skipping the 50 MiB bench array 60 ms with private constants, 97 ms with
// exported ones). materialize-items.ts keeps its own copies for the same reason.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Thrown when the bytes are not the JSON the scanner expects. Scanned bytes are always JSON the
 * bounder parsed before storing (and the store verified), so this signals a bug or damaged bytes:
 * callers fall back to a full parse, which reports what is wrong.
 */
export class ScanError extends Error {}

/**
 * The position after the string whose opening quote is at `position` in `bytes` (of `length`):
 * skipString without noting whether it may be escaped, for skipContainer. A plain function over
 * locals, not a method: V8 keeps the loop's state in registers (measured twice as fast as the
 * method form on the 50 MiB bench array).
 */
function skipStringAt(bytes: Buffer, position: number, length: number): number {
  let at = position + 1;
  const limit = Math.min(length, at + 64);
  while (at < limit) {
    const byte = bytes[at];
    if (byte === QUOTE) return at + 1;
    // A branch, not `at += byte === BACKSLASH ? 2 : 1`: measured 15% slower in V8.
    if (byte === BACKSLASH) at += 2;
    else at += 1;
  }
  return closingQuoteAfter(bytes, at);
}

/**
 * The position after the first quote at or after `from` that no backslash escapes (an odd run
 * of backslashes before a quote escapes it), found by the Buffer's native search.
 */
function closingQuoteAfter(bytes: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote === -1) throw new ScanError("unterminated string");
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The position after the object or array whose '{' or '[' is at `position`. */
function skipContainer(bytes: Buffer, position: number, length: number): number {
  let depth = 0;
  let at = position;
  while (at < length) {
    const byte = bytes[at] as number;
    if (byte === QUOTE) {
      at = skipStringAt(bytes, at, length);
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  throw new ScanError("unterminated container");
}

/**
 * Walks UTF-8 JSON text without building values: skips whitespace, strings and whole values,
 * and reads object keys. Strings are skipped with the Buffer's native search for the closing
 * quote, so long string values cost almost nothing. Limits: positions are byte offsets; the text
 * must be valid JSON (a malformed input throws ScanError or gives a wrong but bounded position,
 * never an endless loop).
 */
export class JsonScanner {
  readonly bytes: Buffer;
  readonly length: number;

  constructor(bytes: Uint8Array) {
    this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.byteLength;
  }

  /** The byte at `position`, or -1 past the end. */
  at(position: number): number {
    return position < this.length ? (this.bytes[position] as number) : -1;
  }

  /** The first position at or after `position` that is not JSON whitespace. */
  skipWhitespace(position: number): number {
    const bytes = this.bytes;
    let at = position;
    while (at < this.length) {
      const byte = bytes[at];
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return at;
      at += 1;
    }
    return at;
  }

  /**
   * Whether the string last skipped by skipString may hold an escape: exact for strings of at
   * most 64 bytes, true for longer ones (their escapes are not looked for).
   */
  mayBeEscaped = false;

  /**
   * The position after the string whose opening quote is at `position`. Short strings (most keys
   * and values) are walked here; past 64 bytes the Buffer's native search takes over, with the
   * parity of the backslashes before a quote deciding whether it is escaped (valid at any start).
   */
  skipString(position: number): number {
    const bytes = this.bytes;
    let at = position + 1;
    const limit = Math.min(this.length, at + 64);
    let escaped = false;
    while (at < limit) {
      const byte = bytes[at];
      if (byte === QUOTE) {
        this.mayBeEscaped = escaped;
        return at + 1;
      }
      if (byte === BACKSLASH) {
        escaped = true;
        at += 2;
      } else at += 1;
    }
    this.mayBeEscaped = true;
    return closingQuoteAfter(bytes, at);
  }

  /** The position after the value starting at `position` (no leading whitespace). */
  skipValue(position: number): number {
    const first = this.bytes[position];
    if (first === QUOTE) return this.skipString(position);
    if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return this.skipScalar(position);
    return skipContainer(this.bytes, position, this.length);
  }

  /** The position after a number, true, false or null starting at `position`. */
  private skipScalar(position: number): number {
    const bytes = this.bytes;
    let at = position;
    while (at < this.length) {
      const byte = bytes[at];
      if (
        byte === COMMA ||
        byte === CLOSE_BRACE ||
        byte === CLOSE_BRACKET ||
        byte === 0x20 ||
        byte === 0x0a ||
        byte === 0x0d ||
        byte === 0x09
      ) {
        break;
      }
      at += 1;
    }
    if (at === position) throw new ScanError("expected a value");
    return at;
  }

  /** Requires `byte` at `position` (after whitespace) and returns the position after it. */
  expect(position: number, byte: number): number {
    const at = this.skipWhitespace(position);
    if (this.bytes[at] !== byte) throw new ScanError(`expected ${String.fromCharCode(byte)}`);
    return at + 1;
  }

  /** The text of the string whose opening quote is at `position` and that ends before `end`. */
  readString(position: number, end: number): string {
    const bytes = this.bytes;
    let escaped = false;
    if (end - position <= 66) {
      for (let at = position + 1; at < end - 1; at += 1) {
        if (bytes[at] === BACKSLASH) {
          escaped = true;
          break;
        }
      }
    } else escaped = bytes.subarray(position + 1, end - 1).includes(BACKSLASH);
    return escaped
      ? (JSON.parse(bytes.toString("utf8", position, end)) as string)
      : bytes.toString("utf8", position + 1, end - 1);
  }

  /**
   * Calls `visit(key, valueStart)` for each member of the object at `position` ('{'); `visit`
   * returns the position after the value (it may skip or read it). Returns the position after '}'.
   */
  forEachMember(position: number, visit: (key: string, valueStart: number) => number): number {
    let at = this.skipWhitespace(position + 1);
    if (this.bytes[at] === CLOSE_BRACE) return at + 1;
    for (;;) {
      if (this.bytes[at] !== QUOTE) throw new ScanError("expected a key");
      const keyEnd = this.skipString(at);
      const key = this.readString(at, keyEnd);
      const valueStart = this.skipWhitespace(this.expect(keyEnd, COLON));
      at = this.skipWhitespace(visit(key, valueStart));
      const byte = this.bytes[at];
      if (byte === CLOSE_BRACE) return at + 1;
      if (byte !== COMMA) throw new ScanError("expected , or }");
      at = this.skipWhitespace(at + 1);
    }
  }

  /**
   * Calls `visit(index, valueStart)` for each element of the array at `position` ('['); `visit`
   * returns the position after the element. Returns the count and the position after ']'.
   */
  forEachElement(
    position: number,
    visit: (index: number, valueStart: number) => number,
  ): { count: number; end: number } {
    let at = this.skipWhitespace(position + 1);
    if (this.bytes[at] === CLOSE_BRACKET) return { count: 0, end: at + 1 };
    let index = 0;
    for (;;) {
      at = this.skipWhitespace(visit(index, at));
      index += 1;
      const byte = this.bytes[at];
      if (byte === CLOSE_BRACKET) return { count: index, end: at + 1 };
      if (byte !== COMMA) throw new ScanError("expected , or ]");
      at = this.skipWhitespace(at + 1);
    }
  }

  /** The value whose text spans [start, end), parsed; inexact literals kept (parseJsonExact). */
  parse(start: number, end: number): unknown {
    return parseJsonExact(this.bytes.toString("utf8", start, end));
  }
}

/**
 * A scanner kept for the life of the module so that the class's instance map stays alive. V8's
 * optimized code for the scan checks that map and holds it weakly: once every scanner of a query
 * is collected, the next full GC drops the map and with it the optimized code ("weak objects"
 * deopt), and the next cold query runs unoptimized while the code is compiled again on V8's
 * helper threads (about 30 ms of extra CPU on a 50 MiB cold page, bench/peers). Limits: keeps
 * one empty scanner (a few dozen bytes); it is never scanned with.
 */
export const SCANNER_SHAPE_KEEPER = new JsonScanner(new Uint8Array(0));
