import { Buffer } from "node:buffer";
import { isInexactLiteral } from "../exact/detect.js";
import { parseJsonExact } from "../exact/parse-exact.js";
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  type JsonScanner,
  OPEN_BRACE,
  QUOTE,
  SCANNER_SHAPE_KEEPER,
  ScanError,
} from "./json-scanner.js";
import { locateArray } from "./locate-array.js";

const RECENT_STRINGS = 8;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const RECENT_MAX_BYTES = 64;
const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");
const NULL = Buffer.from("null");

/** Whether bytes [start, end) equal `other` (from its first byte on). */
function sameBytes(bytes: Uint8Array, start: number, end: number, other: Uint8Array): boolean {
  if (end - start !== other.length) return false;
  for (let at = 0; at < other.length; at += 1) if (bytes[start + at] !== other[at]) return false;
  return true;
}

/** Whether bytes [start, end) are exactly `word`. */
function isWord(bytes: Uint8Array, start: number, end: number, word: Uint8Array): boolean {
  if (end - start !== word.length) return false;
  for (let at = 1; at < word.length; at += 1) if (bytes[start + at] !== word[at]) return false;
  return true;
}

/**
 * The item paths a request reads, as a tree of object keys: a node marked `whole` is read in
 * full (a path ends there); below the others only their children are read. `decode` marks a node
 * a filter reads (a filter path ends at or below it): its value is decoded. A `whole` node only
 * fields read is not decoded: it holds FIELD_PRESENT, since only the page's items are projected
 * and those are parsed whole.
 */
export interface PathTree {
  whole: boolean;
  decode: boolean;
  readonly children: Map<string, PathTree>;
  /** The children with their keys' UTF-8 bytes, so a raw key is matched without decoding it. */
  readonly keyed: { key: string; bytes: Uint8Array; node: PathTree }[];
  /** Strings decoded here lately (enum-like values repeat: `type`, `status`), reused by bytes. */
  readonly recent: { bytes: Uint8Array; text: string }[];
  /** Reuse pays while hits keep up with misses; it stops for good once they fall behind. */
  hits: number;
  misses: number;
}

/** What a materialized item holds where a field (read by no filter) has a value. */
export const FIELD_PRESENT = true;

function createNode(): PathTree {
  return {
    whole: false,
    decode: false,
    children: new Map(),
    keyed: [],
    recent: [],
    hits: 0,
    misses: 0,
  };
}

/** One path of an item: its unescaped tokens (empty: the item itself) and whether a filter reads it. */
export interface ItemPath {
  readonly tokens: readonly string[];
  readonly filter: boolean;
}

/** The tree of `paths`. */
export function pathTreeOf(paths: readonly ItemPath[]): PathTree {
  const root = createNode();
  const encoder = new TextEncoder();
  for (const { tokens, filter } of paths) {
    let node = root;
    if (filter) node.decode = true;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (child === undefined) {
        child = createNode();
        node.children.set(token, child);
        // A token with a lone surrogate has no UTF-8 form: only an escaped key can name it, and
        // escaped keys are decoded and looked up in `children`.
        if (!LONE_SURROGATE.test(token)) {
          node.keyed.push({ key: token, bytes: encoder.encode(token), node: child });
        }
      }
      node = child;
      if (filter) node.decode = true;
    }
    node.whole = true;
  }
  return root;
}

/** The items of an array, each with only what the path tree reads of it. */
export interface MaterializedItems {
  /**
   * One value per element: an object element as a new object holding only the keys on the tree
   * (values at a filter path's end parsed whole, at a field path's end FIELD_PRESENT), any other
   * element parsed whole.
   */
  items: unknown[];
  /** Byte offsets of each element's text (start, end) when asked for; else empty. */
  spans: number[];
}

/**
 * Reads the elements of one array, materializing only the values at the tree's paths, as
 * JSON.parse would give them: strings decoded (escapes included), numbers as JSON.parse reads them
 * except inexact literals, which become ExactNumbers as parseJsonExact makes them (SPEC.md §10),
 * the last of duplicate keys kept, `__proto__` an own key. Everything else is skipped by the
 * scanner (strings by the Buffer's native search). Keys are matched on their raw bytes and decoded
 * only when they hold an escape.
 */
class ItemReader {
  /** The position after the value last read. */
  end = 0;

  constructor(
    private readonly scanner: JsonScanner,
    private readonly tree: PathTree,
  ) {}

  /** Reads the element at `position`; sets `end`. */
  element(position: number): unknown {
    return this.read(position, this.tree);
  }

  /** The value at `position` as `node` reads it (thin object, marker or parsed); sets `end`. */
  private read(position: number, node: PathTree): unknown {
    if (node.whole) {
      if (node.decode) return this.value(position, node);
      this.end = this.scanner.skipValue(position);
      return FIELD_PRESENT;
    }
    return this.scanner.bytes[position] === OPEN_BRACE
      ? this.object(position, node)
      : this.value(position, node);
  }

  /** The string [start, end) without escapes, decoded, or reused from `node`'s recent ones. */
  private text(start: number, end: number, node: PathTree): string {
    const bytes = this.scanner.bytes;
    const length = end - start;
    if (length > RECENT_MAX_BYTES || node.misses > node.hits + 64) {
      return bytes.toString("utf8", start, end);
    }
    const recent = node.recent;
    for (let at = 0; at < recent.length; at += 1) {
      const entry = recent[at] as { bytes: Uint8Array; text: string };
      if (sameBytes(bytes, start, end, entry.bytes)) {
        node.hits += 1;
        return entry.text;
      }
    }
    node.misses += 1;
    const text = bytes.toString("utf8", start, end);
    if (recent.length === RECENT_STRINGS) recent.pop();
    recent.unshift({ bytes: Uint8Array.prototype.slice.call(bytes, start, end), text });
    return text;
  }

  /** The value at `position`, parsed whole; sets `end`. */
  private value(position: number, node: PathTree): unknown {
    const scanner = this.scanner;
    const first = scanner.bytes[position];
    if (first === QUOTE) {
      const end = scanner.skipString(position);
      this.end = end;
      return scanner.mayBeEscaped
        ? scanner.readString(position, end)
        : this.text(position + 1, end - 1, node);
    }
    const end = scanner.skipValue(position);
    this.end = end;
    if (first === OPEN_BRACE || first === 0x5b) return scanner.parse(position, end);
    const bytes = scanner.bytes;
    if (first === 0x74 && isWord(bytes, position, end, TRUE)) return true;
    if (first === 0x66 && isWord(bytes, position, end, FALSE)) return false;
    if (first === 0x6e && isWord(bytes, position, end, NULL)) return null;
    const literal = bytes.toString("latin1", position, end);
    if (isInexactLiteral(literal)) return parseJsonExact(literal);
    const number = Number(literal);
    if (Number.isNaN(number)) throw new ScanError("expected a value");
    return number;
  }

  /**
   * The child of `node` named by the raw key bytes [from, to), if any; `mayBeEscaped` as the
   * scanner said of the key (an escaped key is decoded and looked up).
   */
  private child(
    node: PathTree,
    from: number,
    to: number,
    mayBeEscaped: boolean,
  ): { key: string; node: PathTree } | null {
    const bytes = this.scanner.bytes;
    if (mayBeEscaped && bytes.subarray(from, to).includes(BACKSLASH)) {
      const key = JSON.parse(bytes.toString("utf8", from - 1, to + 1)) as string;
      const found = node.children.get(key);
      return found === undefined ? null : { key, node: found };
    }
    const keyed = node.keyed;
    for (let at = 0; at < keyed.length; at += 1) {
      const candidate = keyed[at] as { key: string; bytes: Uint8Array; node: PathTree };
      if (sameBytes(bytes, from, to, candidate.bytes)) return candidate;
    }
    return null;
  }

  /** The object at `position` with only the keys on `node`; sets `end`. */
  private object(position: number, node: PathTree): Record<string, unknown> {
    const scanner = this.scanner;
    const bytes = scanner.bytes;
    const thin: Record<string, unknown> = {};
    let at = scanner.skipWhitespace(position + 1);
    if (bytes[at] === CLOSE_BRACE) {
      this.end = at + 1;
      return thin;
    }
    for (;;) {
      if (bytes[at] !== QUOTE) throw new ScanError("expected a key");
      const keyEnd = scanner.skipString(at);
      const found =
        node.children.size === 0
          ? null
          : this.child(node, at + 1, keyEnd - 1, scanner.mayBeEscaped);
      const valueStart = scanner.skipWhitespace(scanner.expect(keyEnd, COLON));
      let valueEnd: number;
      if (found === null) valueEnd = scanner.skipValue(valueStart);
      else {
        const value = this.read(valueStart, found.node);
        valueEnd = this.end;
        // A later duplicate key replaces the value (as JSON.parse does); `__proto__` stays data.
        if (found.key === "__proto__") {
          Object.defineProperty(thin, found.key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else thin[found.key] = value;
      }
      at = scanner.skipWhitespace(valueEnd);
      const byte = bytes[at];
      if (byte === CLOSE_BRACE) {
        this.end = at + 1;
        return thin;
      }
      if (byte !== COMMA) throw new ScanError("expected , or }");
      at = scanner.skipWhitespace(at + 1);
    }
  }
}

/** The largest element (in bytes) whose materialized item `shapeKeepers` keeps. */
const SHAPE_KEEPER_MAX_BYTES = 4096;

/**
 * Objects kept for the life of the module so that their maps outlive a GC, for the reason
 * SCANNER_SHAPE_KEEPER is kept (V8 drops optimized code whose weakly held maps die): an
 * ItemReader, and the first item of the last scan (when its element is at most
 * SHAPE_KEEPER_MAX_BYTES), whose map the items of the next scan of the same kind of array share
 * and the filter loops check. Held by a function below: a module constant no function reads
 * would not be kept.
 */
const shapeKeepers: { reader: ItemReader; item: unknown } = {
  reader: new ItemReader(SCANNER_SHAPE_KEEPER, pathTreeOf([])),
  item: undefined,
};

/**
 * Finds the array at `tokens` (as locateArray) and materializes every element with only what
 * `tree` reads of it (ItemReader), keeping each element's byte span when `withSpans`. Undefined
 * when the path does not end at an array; throws ScanError on text that is not JSON. Cost: one
 * pass over the array's bytes plus the values read.
 */
export function materializeItems(
  bytes: Uint8Array,
  tokens: readonly string[],
  tree: PathTree,
  withSpans: boolean,
): MaterializedItems | undefined {
  return locateArray(bytes, tokens, (scanner, position) => {
    const reader = new ItemReader(scanner, tree);
    const items: unknown[] = [];
    const spans: number[] = [];
    const data = scanner.bytes;
    let at = scanner.skipWhitespace(position + 1);
    if (data[at] === CLOSE_BRACKET) return { end: at + 1, found: { items, spans } };
    const first = reader.element(at);
    if (reader.end - at <= SHAPE_KEEPER_MAX_BYTES) shapeKeepers.item = first;
    items.push(first);
    if (withSpans) spans.push(at, reader.end);
    for (;;) {
      at = scanner.skipWhitespace(reader.end);
      const byte = data[at];
      if (byte === CLOSE_BRACKET) return { end: at + 1, found: { items, spans } };
      if (byte !== COMMA) throw new ScanError("expected , or ]");
      at = scanner.skipWhitespace(at + 1);
      items.push(reader.element(at));
      if (withSpans) spans.push(at, reader.end);
    }
  });
}
