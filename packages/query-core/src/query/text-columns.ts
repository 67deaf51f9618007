import { OBJECT_BYTES, typedBytes } from "../views/view-bytes.js";
import type { CompiledPath } from "./compiled-path.js";
import { icontainsMatches, type LeafSlot, leafSlotOf, readLeaf } from "./filter-loops.js";
import type { CompiledFilter } from "./filters.js";
import { icontainsPattern } from "./icontains.js";
import { type IcontainsNeedle, includesNeedle } from "./icontains-needle.js";
import { type ColumnStore, hasColumnKey, stepsKey } from "./path-columns.js";

// A text column: the strings one path reads on every item of a collection (a string value, and
// each string element of an array value: what icontains looks at, SPEC.md §9 rule 4), joined
// into one string with a separator, with where each string starts and whose item it is. An ASCII
// icontains over the path is then a global RegExp search of that one string (a few exec calls
// for the whole collection) instead of a property walk and a search of every item: the walk
// is memory-bound (every item's objects are loaded), the search reads the strings once, packed.
// The first question joins each range's strings into a piece of the text right after reading
// them (still in the processor's cache), and the pieces once at the end: joining every string at
// the end loaded each from memory again (on the §9 bench about a third of what laying a column
// out added to the walk). Keeping only references to the document's strings (no text) was
// measured and not kept: a later question then loads every string from memory, about as slow as
// the walk (README "Text columns").
// Kept in the view cache (README "View cache", "Text columns") under the budget of the cache.

/** Between two strings of the text (any character would do: a match across one is discarded). */
const SEPARATOR = "\n";

/**
 * The strings of one path over every item of one collection (items in a WeakRef, as path
 * columns: a kept column must not keep the parsed document alive). String `s` of the column is
 * `text.slice(starts[s], starts[s + 1] - 1)`, read on item `owners[s]`; the strings of item `i`
 * are `firstString[i]` to `firstString[i + 1]` (exclusive). Read-only for its users.
 */
export interface TextColumn {
  readonly items: WeakRef<readonly unknown[]>;
  readonly text: string;
  /** Where each string starts in `text`, then one past the end of `text` + 1 (a sentinel). */
  readonly starts: Int32Array;
  /** The item of each string. */
  readonly owners: Int32Array;
  /** Per item, its first string's number; then the count of strings (a sentinel). */
  readonly firstString: Int32Array;
  /** 1 where the path resolves on the item (`read` returned something other than undefined). */
  readonly resolved: Uint8Array;
}

/**
 * What a text column costs in the view cache: its text at two bytes a character (whatever the
 * engine stores it in), its three integer arrays, its resolved flags and a header. The strings
 * of the document are not counted; the joined text is the column's own copy.
 */
export function textColumnBytes(column: TextColumn): number {
  return (
    OBJECT_BYTES +
    24 +
    2 * column.text.length +
    typedBytes(column.starts) +
    typedBytes(column.owners) +
    typedBytes(column.firstString) +
    typedBytes(column.resolved)
  );
}

/** The view cache key of a path's text column over a collection of `count` items. */
function textKey(count: number, path: CompiledPath): string {
  return `text\u0000${count}\u0000${stepsKey(path)}`;
}

/** The kept text column of `path` over exactly these items, if one is kept. */
export function keptTextColumn(
  store: ColumnStore,
  items: readonly unknown[],
  path: CompiledPath,
): TextColumn | undefined {
  const column = store.getKept(textKey(items.length, path)) as TextColumn | undefined;
  return column !== undefined && column.items.deref() === items ? column : undefined;
}

/**
 * A text column being laid out, range by range from item 0; `abandoned` once what it would cost
 * passed the store's budget (it then lays out nothing more and is not kept).
 */
interface TextBuilder {
  /** The current range's strings (the document's own), joined into a piece once it is laid. */
  parts: string[];
  /** The text so far, a piece a range that had strings (joined by finishBuilder). */
  pieces: string[];
  /** Where each string starts in the text, `count` of them (grown with `owners`). */
  starts: Int32Array;
  owners: Int32Array;
  count: number;
  readonly firstString: Int32Array;
  readonly resolved: Uint8Array;
  /** Characters of the text so far (separators included). */
  characters: number;
  abandoned: boolean;
}

function createBuilder(count: number): TextBuilder {
  return {
    parts: [],
    pieces: [],
    starts: new Int32Array(count + 1),
    owners: new Int32Array(count),
    count: 0,
    firstString: new Int32Array(count + 1),
    resolved: new Uint8Array(count),
    characters: 0,
    abandoned: false,
  };
}

/** The least a text column over `count` items costs (no strings): its per-item arrays. */
function textColumnBytesAtLeast(count: number): number {
  return OBJECT_BYTES * 5 + 24 + 4 + 5 * count;
}

/** What the builder's column would cost now (textColumnBytes of what it holds so far). */
function builderBytes(builder: TextBuilder): number {
  const strings = builder.count;
  return (
    OBJECT_BYTES * 5 +
    24 +
    2 * builder.characters +
    8 * strings +
    4 +
    builder.firstString.byteLength +
    builder.resolved.byteLength
  );
}

/** The finished column of a builder that reached the last item (null when abandoned). */
function finishBuilder(builder: TextBuilder, items: readonly unknown[]): TextColumn | null {
  if (builder.abandoned) return null;
  const count = builder.count;
  const starts = builder.starts.slice(0, count + 1);
  starts[count] = builder.characters;
  builder.firstString[items.length] = count;
  return {
    items: new WeakRef(items),
    text: builder.pieces.join(SEPARATOR),
    starts,
    owners: builder.owners.slice(0, count),
    firstString: builder.firstString,
    resolved: builder.resolved,
  };
}

/**
 * One leaf of the anyOf over its column: the kept column (or the one this scan lays out), its
 * global search pattern and where the search stands, and the items it held on (`hits`).
 */
interface TextLeaf {
  readonly leaf: CompiledFilter;
  /** The leaf unpacked for readLeaf (the filter loops' path walk). */
  readonly slot: LeafSlot;
  /** The icontains needle (icontains-needle.ts), for deciding strings while laying out. */
  readonly needle: IcontainsNeedle;
  /** The icontains RegExp of the same needle (icontains.ts), global: searches a kept text. */
  readonly search: RegExp;
  readonly column: TextColumn | undefined;
  /** The column being laid out (shared by the leaves on one path), or null when one is kept. */
  readonly builder: TextBuilder | null;
  /** True for the one leaf of its path that lays the builder out (the others only decide). */
  readonly lays: boolean;
  /** Where the path resolves: the kept column's flags, or the builder's. */
  readonly flags: Uint8Array;
  /** 1 on the items the leaf held on. */
  readonly hits: Uint8Array;
  /** The budget a laid-out column must fit (the store's). */
  readonly maxBytes: number;
  /** Where the next search starts in the kept column's text. */
  from: number;
  /** A match found past the last range searched (its start and end), or -1. */
  pendingAt: number;
  pendingEnd: number;
  /** True once the search found no further match. */
  exhausted: boolean;
}

/**
 * The items of one range the leaves held on: `held` marks the union over leaves, `found` lists
 * its items as they were first marked (sorted before they are pushed as indices).
 */
interface RangeHits {
  readonly held: Uint8Array;
  readonly found: number[];
}

/** Marks that the leaf holds on the item; true when that is new for the leaf. */
function markHit(text: TextLeaf, item: number, range: RangeHits): boolean {
  if (text.hits[item] === 1) return false;
  text.hits[item] = 1;
  if (range.held[item] === 0) {
    range.held[item] = 1;
    range.found.push(item);
  }
  return true;
}

/**
 * Lays out items [start, end) of a leaf's column and decides them with the leaf's needle, as
 * the filter loops decide (a string that matches, or an array with a string element that does);
 * a leaf that shares the path's builder only decides. Returns how many items the leaf held on.
 */
function buildRange(
  text: TextLeaf,
  items: readonly unknown[],
  start: number,
  end: number,
  range: RangeHits,
): number {
  const builder = text.builder as TextBuilder;
  const slot = text.slot;
  const needle = text.needle;
  const { firstString, resolved } = builder;
  const lays = text.lays;
  let matched = 0;
  for (let index = start; index < end; index += 1) {
    const value = readLeaf(slot, items[index], index);
    if (!lays) {
      if (icontainsMatches(needle, value) && markHit(text, index, range)) matched += 1;
      continue;
    }
    firstString[index] = builder.count;
    if (value === undefined) continue;
    resolved[index] = 1;
    if (typeof value === "string") {
      if (includesNeedle(value, needle) && markHit(text, index, range)) matched += 1;
      if (!builder.abandoned) addString(builder, value, index);
    } else if (Array.isArray(value)) {
      for (let at = 0; at < value.length; at += 1) {
        const element: unknown = value[at];
        if (typeof element !== "string") continue;
        if (includesNeedle(element, needle) && markHit(text, index, range)) matched += 1;
        if (!builder.abandoned) addString(builder, element, index);
      }
    }
  }
  if (lays && !builder.abandoned) joinRange(builder);
  if (lays && !builder.abandoned && builderBytes(builder) > text.maxBytes) {
    builder.abandoned = true;
    builder.parts = [];
    builder.pieces = [];
    builder.starts = new Int32Array(0);
    builder.owners = new Int32Array(0);
    builder.count = 0;
  }
  return matched;
}

/**
 * Joins the range's strings into one piece of the text while they are still in the processor's
 * cache (joining every string once the scan is over loads each of them from memory again: that
 * join and the starts read from the strings were most of what laying a column out cost).
 */
function joinRange(builder: TextBuilder): void {
  const parts = builder.parts;
  if (parts.length === 0) return;
  builder.pieces.push(parts.join(SEPARATOR));
  parts.length = 0;
}

/** Appends one string of item `owner` to the builder (growing its arrays when full). */
function addString(builder: TextBuilder, value: string, owner: number): void {
  const count = builder.count;
  if (count + 1 >= builder.starts.length) {
    const owners = new Int32Array(Math.max(16, 2 * count));
    owners.set(builder.owners);
    builder.owners = owners;
    const starts = new Int32Array(Math.max(16, 2 * count) + 1);
    starts.set(builder.starts);
    builder.starts = starts;
  }
  builder.parts.push(value);
  builder.starts[count] = builder.characters;
  (builder.owners as Int32Array)[count] = owner;
  builder.count = count + 1;
  builder.characters += value.length + 1;
}

/** The last string among [low, high) that starts at or before text position `at` (else low). */
function stringAt(starts: Int32Array, at: number, low: number, high: number): number {
  let first = low;
  let last = high - 1;
  while (first < last) {
    const middle = (first + last + 1) >>> 1;
    if ((starts[middle] as number) <= at) first = middle;
    else last = middle - 1;
  }
  return first;
}

/**
 * Decides items [start, end) over a kept column: the leaf's global search goes on where the
 * previous range left it (each character of the text is searched once over the whole scan; a
 * match found past the range waits for a later range). A match that does not lie inside one
 * string (it runs over a separator) is searched again one character on; after a match the search
 * goes on at the next item's first string (an item is decided once). Returns how many items the
 * leaf held on.
 */
function searchRange(text: TextLeaf, start: number, end: number, range: RangeHits): number {
  const column = text.column as TextColumn;
  const { starts, owners, firstString } = column;
  const search = text.search;
  const haystack = column.text;
  const low = firstString[start] as number;
  const high = firstString[end] as number;
  if (low >= high) return 0;
  const stop = (starts[high] as number) - 1;
  let matched = 0;
  for (;;) {
    let at = text.pendingAt;
    let finish = text.pendingEnd;
    if (at < 0) {
      if (text.exhausted) return matched;
      search.lastIndex = text.from;
      const match = search.exec(haystack);
      if (match === null) {
        text.exhausted = true;
        return matched;
      }
      at = match.index;
      finish = search.lastIndex;
    }
    if (at >= stop) {
      text.pendingAt = at;
      text.pendingEnd = finish;
      return matched;
    }
    text.pendingAt = -1;
    const string = stringAt(starts, at, low, high);
    if (at >= (starts[string] as number) && finish <= (starts[string + 1] as number) - 1) {
      const item = owners[string] as number;
      if (markHit(text, item, range)) matched += 1;
      text.from = starts[firstString[item + 1] as number] as number;
    } else {
      text.from = at + 1;
    }
  }
}

/** A text scan (createTextScan): decides ranges of items in order, then keeps its columns. */
export interface TextScan {
  /** Decides items [start, end) (in order from 0): counts and matching indices as the loops do. */
  scan(start: number, end: number, counts: Float64Array, indices: number[]): void;
  /** Once the scan reached the last item: keeps the columns it laid out. */
  finish(): void;
}

/** Adds to `inner` each leaf's resolvedOn over [start, end); returns the anyOf's. */
function countResolved(
  flags: readonly Uint8Array[],
  start: number,
  end: number,
  inner: Float64Array,
): number {
  let either = 0;
  if (flags.length === 2) {
    const flags0 = flags[0] as Uint8Array;
    const flags1 = flags[1] as Uint8Array;
    let resolved0 = 0;
    let resolved1 = 0;
    for (let index = start; index < end; index += 1) {
      const flag0 = flags0[index] as number;
      const flag1 = flags1[index] as number;
      resolved0 += flag0;
      resolved1 += flag1;
      either += flag0 | flag1;
    }
    inner[0] = (inner[0] as number) + resolved0;
    inner[2] = (inner[2] as number) + resolved1;
    return either;
  }
  for (let at = 0; at < flags.length; at += 1) {
    const leafFlags = flags[at] as Uint8Array;
    let resolved = 0;
    for (let index = start; index < end; index += 1) resolved += leafFlags[index] as number;
    inner[2 * at] = (inner[2 * at] as number) + resolved;
  }
  for (let index = start; index < end; index += 1) {
    let flag = 0;
    for (let at = 0; at < flags.length; at += 1) flag |= (flags[at] as Uint8Array)[index] as number;
    either += flag;
  }
  return either;
}

/**
 * A scan of the request's only filter, an anyOf of ASCII icontains filters (each with a needle,
 * on a path with a column key), over text columns; null when it does not apply (no store, a
 * collection under the store's `minItems`, any other filter, a column to lay out that the
 * store's budget could not keep even without its strings). Kept columns are searched; missing
 * ones are laid out as the scan goes (their strings decided one by one, as the loops do) and kept
 * by `finish` when the store's budget holds them. Counts as applyFiltersWithAnyOf puts them: the
 * anyOf's resolvedOn and matched at 0 and 1 of `counts`, each filter's at 2n and 2n + 1 of
 * `inner`; every filter is decided on every item (honest counts). Ranges must come in order from
 * item 0 (any index is a safe boundary).
 */
export function createTextScan(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
  inner: Float64Array | undefined,
  store: ColumnStore | null,
): TextScan | null {
  if (store === null || items.length < store.minItems || filters.length !== 1) return null;
  const leaves = filters[0]?.anyOf;
  if (leaves === null || leaves === undefined || inner === undefined) return null;
  for (const leaf of leaves) if (leaf.needle === null || !hasColumnKey(leaf.path)) return null;
  // A budget that could keep no column over these items leaves the scan to the loops.
  const missing = leaves.some((leaf) => keptTextColumn(store, items, leaf.path) === undefined);
  if (missing && textColumnBytesAtLeast(items.length) > store.maxBytes) return null;
  // Leaves on one path share its column: the first of them lays it out.
  const byPath = new Map<string, { column: TextColumn | undefined; builder: TextBuilder | null }>();
  const texts = leaves.map((leaf): TextLeaf => {
    const needle = leaf.needle as IcontainsNeedle;
    const key = stepsKey(leaf.path);
    const shared = byPath.get(key);
    const found = shared ?? { column: keptTextColumn(store, items, leaf.path), builder: null };
    if (shared === undefined) {
      if (found.column === undefined) found.builder = createBuilder(items.length);
      byPath.set(key, found);
    }
    const { column, builder } = found;
    return {
      leaf,
      slot: leafSlotOf(leaf),
      needle,
      search: icontainsPattern(needle.text, "gi") as RegExp,
      column,
      builder,
      lays: builder !== null && shared === undefined,
      flags: builder !== null ? builder.resolved : (column as TextColumn).resolved,
      hits: new Uint8Array(items.length),
      maxBytes: store.maxBytes,
      from: 0,
      pendingAt: -1,
      pendingEnd: -1,
      exhausted: false,
    };
  });
  const flags = texts.map((text) => text.flags);
  const range: RangeHits = { held: new Uint8Array(items.length), found: [] };
  return {
    scan(start, end, counts, indices) {
      range.found.length = 0;
      // The laying leaves first: a leaf that only decides reads the flags they set.
      const order = [...texts.filter((text) => text.lays), ...texts.filter((text) => !text.lays)];
      for (const text of order) {
        const matched =
          text.builder === null
            ? searchRange(text, start, end, range)
            : buildRange(text, items, start, end, range);
        const at = texts.indexOf(text);
        inner[2 * at + 1] = (inner[2 * at + 1] as number) + matched;
      }
      counts[0] = (counts[0] as number) + countResolved(flags, start, end, inner);
      const found = range.found.sort((left, right) => left - right);
      counts[1] = (counts[1] as number) + found.length;
      for (const item of found) indices.push(item);
    },
    finish() {
      for (const text of texts) {
        if (!text.lays) continue;
        const column = finishBuilder(text.builder as TextBuilder, items);
        if (column === null) continue;
        const bytes = textColumnBytes(column);
        if (bytes <= store.maxBytes)
          store.keep(textKey(items.length, text.leaf.path), column, bytes);
      }
    },
  };
}
