import { Buffer } from "node:buffer";
import { isInexactLiteral } from "../exact/detect.js";
import { parseJsonExact } from "../exact/parse-exact.js";
import { type JsonScanner, SCANNER_SHAPE_KEEPER, ScanError } from "./json-scanner.js";
import { locateArray } from "./locate-array.js";
import { type ReadValues, SharedThinObjects } from "./shared-thin-objects.js";

// The JSON bytes tested here: module-private, so V8 folds them (see json-scanner.ts).
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const RECENT_STRINGS = 8;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const RECENT_MAX_BYTES = 64;
const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");
const NULL = Buffer.from("null");

/**
 * Whether bytes [start, end) equal `other`. Compared from the last byte back: values that share
 * a long prefix (namespaced types, URLs) differ sooner at their ends.
 */
function sameBytes(bytes: Uint8Array, start: number, end: number, other: Uint8Array): boolean {
  if (end - start !== other.length) return false;
  for (let at = other.length - 1; at >= 0; at -= 1) {
    if (bytes[start + at] !== other[at]) return false;
  }
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
  /** This node's number in its tree (the key of its values in `shared`). */
  id: number;
  /**
   * Where items share their thin objects at this node (SharedThinObjects): set when every child
   * is read whole (its value decoded or FIELD_PRESENT), null otherwise.
   */
  shared: SharedThinObjects | null;
}

/** What a materialized item holds where a field (read by no filter) has a value. */
export const FIELD_PRESENT = true;

function createNode(id: number): PathTree {
  return {
    whole: false,
    decode: false,
    children: new Map(),
    keyed: [],
    recent: [],
    hits: 0,
    misses: 0,
    id,
    shared: null,
  };
}

/** Sets `shared` on every node of the tree whose children are all read whole. */
function markShared(node: PathTree): void {
  if (node.children.size === 0) return;
  let leaves = true;
  for (const child of node.children.values()) {
    markShared(child);
    if (!child.whole) leaves = false;
  }
  if (leaves) node.shared = new SharedThinObjects();
}

/** One path of an item: its unescaped tokens (empty: the item itself) and whether a filter reads it. */
export interface ItemPath {
  readonly tokens: readonly string[];
  readonly filter: boolean;
}

/** The tree of `paths`. */
export function pathTreeOf(paths: readonly ItemPath[]): PathTree {
  let nodes = 0;
  const root = createNode(nodes++);
  const encoder = new TextEncoder();
  for (const { tokens, filter } of paths) {
    let node = root;
    if (filter) node.decode = true;
    for (const token of tokens) {
      let child = node.children.get(token);
      if (child === undefined) {
        child = createNode(nodes++);
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
  markShared(root);
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
  /**
   * Byte offsets of each element's text: element i spans [spans[2i], spans[2i + 1]), when asked
   * for; else empty. A typed array (off the young generation: nothing for a scavenge to copy).
   */
  spans: Float64Array;
}

/** Sets `key` on `thin`: a later duplicate key replaces the value (as JSON.parse does), and `__proto__` stays data. */
function setMember(thin: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(thin, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else thin[key] = value;
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
  /** The values of the object being read at a shared node (see objectShared). */
  private readonly values: ReadValues = { ids: [], starts: [], ends: [], count: 0 };
  private readonly keys: string[] = [];
  private readonly nodes: PathTree[] = [];

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
    if (this.scanner.bytes[position] !== OPEN_BRACE) return this.value(position, node);
    const shared = node.shared;
    return shared?.on === true
      ? this.objectShared(position, node, shared)
      : this.object(position, node);
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
    if (first === OPEN_BRACE || first === OPEN_BRACKET) return scanner.parse(position, end);
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

  /**
   * The object at `position` as `object` reads it, taken from `shared` when an earlier item had
   * the same values under the same keys: first the keys on `node` and their values' spans are
   * found (values skipped, not read), then on a miss the object is built from those spans and
   * offered. Sets `end`.
   */
  private objectShared(
    position: number,
    node: PathTree,
    shared: SharedThinObjects,
  ): Record<string, unknown> {
    const scanner = this.scanner;
    const bytes = scanner.bytes;
    const values = this.values;
    const keys = this.keys;
    const nodes = this.nodes;
    let count = 0;
    let at = scanner.skipWhitespace(position + 1);
    if (bytes[at] !== CLOSE_BRACE) {
      for (;;) {
        if (bytes[at] !== QUOTE) throw new ScanError("expected a key");
        const keyEnd = scanner.skipString(at);
        const found = this.child(node, at + 1, keyEnd - 1, scanner.mayBeEscaped);
        const valueStart = scanner.skipWhitespace(scanner.expect(keyEnd, COLON));
        const valueEnd = scanner.skipValue(valueStart);
        if (found !== null) {
          values.ids[count] = found.node.id;
          values.starts[count] = valueStart;
          values.ends[count] = valueEnd;
          keys[count] = found.key;
          nodes[count] = found.node;
          count += 1;
        }
        at = scanner.skipWhitespace(valueEnd);
        const byte = bytes[at];
        if (byte === CLOSE_BRACE) break;
        if (byte !== COMMA) throw new ScanError("expected , or }");
        at = scanner.skipWhitespace(at + 1);
      }
    }
    const end = at + 1;
    values.count = count;
    let thin = shared.find(bytes, values);
    if (thin === undefined) {
      thin = {};
      for (let slot = 0; slot < count; slot += 1) {
        setMember(
          thin,
          keys[slot] as string,
          this.read(values.starts[slot] as number, nodes[slot] as PathTree),
        );
      }
      shared.offer(bytes, values, thin);
    }
    this.end = end;
    return thin;
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
        setMember(thin, found.key, value);
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
 * ItemReader, a SharedThinObjects, and the first item of the last scan (when its element is at most
 * SHAPE_KEEPER_MAX_BYTES), whose map the items of the next scan of the same kind of array share
 * and the filter loops check. Held by a function below: a module constant no function reads
 * would not be kept.
 */
const shapeKeepers: { reader: ItemReader; shared: SharedThinObjects; item: unknown } = {
  reader: new ItemReader(SCANNER_SHAPE_KEEPER, pathTreeOf([])),
  shared: new SharedThinObjects(),
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
    let spans = new Float64Array(withSpans ? 1024 : 0);
    let count = 0;
    const found = () => ({ items, spans: spans.subarray(0, 2 * count) });
    const data = scanner.bytes;
    let at = scanner.skipWhitespace(position + 1);
    if (data[at] === CLOSE_BRACKET) return { end: at + 1, found: found() };
    for (;;) {
      const item = reader.element(at);
      if (count === 0 && reader.end - at <= SHAPE_KEEPER_MAX_BYTES) shapeKeepers.item = item;
      items.push(item);
      if (withSpans) {
        if (2 * count + 2 > spans.length) {
          const grown = new Float64Array(spans.length * 2);
          grown.set(spans);
          spans = grown;
        }
        spans[2 * count] = at;
        spans[2 * count + 1] = reader.end;
      }
      count += 1;
      at = scanner.skipWhitespace(reader.end);
      const byte = data[at];
      if (byte === CLOSE_BRACKET) return { end: at + 1, found: found() };
      if (byte !== COMMA) throw new ScanError("expected , or ]");
      at = scanner.skipWhitespace(at + 1);
    }
  });
}
