import { isInexactLiteral } from "../exact/detect.js";
import { parseJsonExact } from "../exact/parse-exact.js";
import { type JsonScanner, ScanError } from "./json-scanner.js";
import { locateArray } from "./locate-array.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * The item paths a request reads, as a tree of object keys: a node marked `whole` is read in
 * full (a path ends there); below the others only their children are read.
 */
export interface PathTree {
  whole: boolean;
  readonly children: Map<string, PathTree>;
  /** The children with their keys' UTF-8 bytes, so a raw key is matched without decoding it. */
  readonly keyed: { key: string; bytes: Uint8Array; node: PathTree }[];
}

function createNode(): PathTree {
  return { whole: false, children: new Map(), keyed: [] };
}

/**
 * The tree of `paths` (each the unescaped tokens of one field or filter path relative to an
 * item; an empty path is the whole item).
 */
export function pathTreeOf(paths: readonly (readonly string[])[]): PathTree {
  const root = createNode();
  const encoder = new TextEncoder();
  for (const tokens of paths) {
    let node = root;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (child === undefined) {
        child = createNode();
        node.children.set(token, child);
        node.keyed.push({ key: token, bytes: encoder.encode(token), node: child });
      }
      node = child;
    }
    node.whole = true;
  }
  return root;
}

/** The items of an array, each with only what the path tree reads of it. */
export interface MaterializedItems {
  /**
   * One value per element: an object element as a new object holding only the keys on the tree
   * (values at a path's end parsed whole), any other element parsed whole.
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
    const bytes = this.scanner.bytes;
    if (!this.tree.whole && bytes[position] === OPEN_BRACE) return this.object(position, this.tree);
    return this.value(position);
  }

  /** The value at `position`, parsed whole; sets `end`. */
  private value(position: number): unknown {
    const scanner = this.scanner;
    const first = scanner.bytes[position];
    if (first === QUOTE) {
      const end = scanner.skipString(position);
      this.end = end;
      return scanner.readString(position, end);
    }
    const end = scanner.skipValue(position);
    this.end = end;
    if (first === OPEN_BRACE || first === 0x5b) return scanner.parse(position, end);
    const literal = scanner.bytes.toString("latin1", position, end);
    if (literal === "true") return true;
    if (literal === "false") return false;
    if (literal === "null") return null;
    if (isInexactLiteral(literal)) return parseJsonExact(literal);
    const number = Number(literal);
    if (Number.isNaN(number)) throw new ScanError("expected a value");
    return number;
  }

  /** The child of `node` named by the raw key bytes [from, to), if any. */
  private child(node: PathTree, from: number, to: number): { key: string; node: PathTree } | null {
    const bytes = this.scanner.bytes;
    for (let at = from; at < to; at += 1) {
      if (bytes[at] === BACKSLASH) {
        const key = JSON.parse(bytes.toString("utf8", from - 1, to + 1)) as string;
        const found = node.children.get(key);
        return found === undefined ? null : { key, node: found };
      }
    }
    const length = to - from;
    for (const candidate of node.keyed) {
      const wanted = candidate.bytes;
      if (wanted.length !== length) continue;
      let same = true;
      for (let at = 0; at < length; at += 1) {
        if (wanted[at] !== bytes[from + at]) {
          same = false;
          break;
        }
      }
      if (same) return candidate;
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
      const found = this.child(node, at + 1, keyEnd - 1);
      const valueStart = scanner.skipWhitespace(scanner.expect(keyEnd, COLON));
      let valueEnd: number;
      if (found === null) valueEnd = scanner.skipValue(valueStart);
      else {
        const value =
          !found.node.whole && bytes[valueStart] === OPEN_BRACE
            ? this.object(valueStart, found.node)
            : this.value(valueStart);
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
    for (;;) {
      items.push(reader.element(at));
      if (withSpans) spans.push(at, reader.end);
      at = scanner.skipWhitespace(reader.end);
      const byte = data[at];
      if (byte === CLOSE_BRACKET) return { end: at + 1, found: { items, spans } };
      if (byte !== COMMA) throw new ScanError("expected , or ]");
      at = scanner.skipWhitespace(at + 1);
    }
  });
}
