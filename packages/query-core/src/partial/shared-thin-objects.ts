/** At most this many shared objects per path-tree node. */
const MAX_ENTRIES = 4096;
/** Sharing stops for good once misses outrun hits by this many (high-cardinality values). */
const GIVE_UP_AFTER = 256;

/** One shared object and the value bytes it was built from. */
interface Entry {
  /** Per value: the child's id and its byte length. */
  readonly layout: Int32Array;
  /** The values' bytes, one after another. */
  readonly bytes: Uint8Array;
  readonly object: Record<string, unknown>;
}

/** The children a thin object was read from, in key order, and where each value's bytes are. */
export interface ReadValues {
  /** The children's ids (PathTree.id), in the order their keys came. */
  readonly ids: number[];
  readonly starts: number[];
  readonly ends: number[];
  /** How many of the slots above this object uses. */
  count: number;
}

/** Whether every value of `object` is a primitive (a string, number, boolean or null). */
function allPrimitive(object: Record<string, unknown>): boolean {
  for (const value of Object.values(object)) {
    if (typeof value === "object" && value !== null) return false;
  }
  return true;
}

/**
 * The thin objects of one path-tree node, shared between items whose read values are the same
 * bytes under the same keys in the same order (hash-consing): a filtered scan of the bench's 126k
 * items over `type` and `disabled` builds ten objects instead of 126k, so the scan allocates
 * almost nothing for the garbage collector to copy. Safe because thin objects are only read
 * (runQuery's filters and field checks never write to an item, and the page's items are replaced
 * by their whole parse) and only objects whose values are all primitives are shared: equal bytes
 * decode to equal primitives. Limits: at most MAX_ENTRIES objects; a hash collision just builds a
 * fresh object; sharing stops for good once misses outrun hits by GIVE_UP_AFTER (ids, URLs).
 */
export class SharedThinObjects {
  /** False once sharing stopped paying; the caller then builds every object itself. */
  on = true;
  private readonly entries = new Map<number, Entry>();
  private hits = 0;
  private misses = 0;
  /** The hash find computed last, for offer. */
  private pending = 0;

  /** The shared object for `values` of `bytes`, or undefined: then build it and `offer` it. */
  find(bytes: Uint8Array, values: ReadValues): Record<string, unknown> | undefined {
    let hash = 0x811c9dc5 ^ values.count;
    for (let slot = 0; slot < values.count; slot += 1) {
      hash = Math.imul(hash ^ (values.ids[slot] as number), 0x01000193);
      const end = values.ends[slot] as number;
      for (let at = values.starts[slot] as number; at < end; at += 1) {
        hash = Math.imul(hash ^ (bytes[at] as number), 0x01000193);
      }
    }
    const entry = this.entries.get(hash);
    if (entry !== undefined && sameValues(bytes, values, entry)) {
      this.hits += 1;
      return entry.object;
    }
    this.misses += 1;
    if (this.misses > this.hits + GIVE_UP_AFTER) this.on = false;
    this.pending = hash;
    return undefined;
  }

  /** Offers the object just built for the `values` find did not find. */
  offer(bytes: Uint8Array, values: ReadValues, object: Record<string, unknown>): void {
    if (!this.on || this.entries.size >= MAX_ENTRIES || this.entries.has(this.pending)) return;
    if (!allPrimitive(object)) return;
    const layout = new Int32Array(2 * values.count);
    let length = 0;
    for (let slot = 0; slot < values.count; slot += 1) {
      const size = (values.ends[slot] as number) - (values.starts[slot] as number);
      layout[2 * slot] = values.ids[slot] as number;
      layout[2 * slot + 1] = size;
      length += size;
    }
    const copy = new Uint8Array(length);
    let into = 0;
    for (let slot = 0; slot < values.count; slot += 1) {
      const start = values.starts[slot] as number;
      const end = values.ends[slot] as number;
      copy.set(bytes.subarray(start, end), into);
      into += end - start;
    }
    this.entries.set(this.pending, { layout, bytes: copy, object });
  }
}

/** Whether `values` of `bytes` are the entry's: same children in the same order, same bytes. */
function sameValues(bytes: Uint8Array, values: ReadValues, entry: Entry): boolean {
  const layout = entry.layout;
  if (layout.length !== 2 * values.count) return false;
  let from = 0;
  for (let slot = 0; slot < values.count; slot += 1) {
    const start = values.starts[slot] as number;
    const size = (values.ends[slot] as number) - start;
    if (layout[2 * slot] !== values.ids[slot] || layout[2 * slot + 1] !== size) return false;
    const stored = entry.bytes;
    for (let at = size - 1; at >= 0; at -= 1) {
      if (bytes[start + at] !== stored[from + at]) return false;
    }
    from += size;
  }
  return true;
}
