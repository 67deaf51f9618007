import {
  compareNumeric,
  type ExactNumber,
  exactDouble,
  isExactNumber,
} from "../exact/exact-number.js";
import { sortInSteps } from "../schedule/merge-sort.js";
import { inChunks, runToEnd, type Work } from "../schedule/work.js";
import { canonicalJson } from "./canonical-json.js";
import type { PathStep } from "./compiled-path.js";
import { gatherOwnKey, gathersTwoSteps, gatherTwoSteps, PENDING_CLASS } from "./sort-gather.js";
import { selectTopNumbers } from "./sort-top-numbers.js";
import {
  BOOLEAN_CLASS,
  lengthOf,
  MISSING_CLASS,
  NUMBER_CLASS,
  STRING_CLASS,
  STRUCTURED_CLASS,
} from "./sort-values.js";
import { readSteps } from "./walk-path.js";

// Sort (SPEC.md §9 rules 1-2): the sort keys of the selected (filtered) items are extracted once
// into columns, then positions are ordered by them, ties by position (document order), so the
// order is total and a page of it is the same whichever way it is computed.

/**
 * How one sort key reads an item: its reader (and, when the path allows, the one own key or the
 * steps the extraction loop walks itself), and whether it measures and descends.
 */
export interface SortKeyReader {
  read: (item: unknown, index: number) => unknown;
  ownKey?: string | undefined;
  steps?: readonly PathStep[] | undefined;
  measure: boolean;
  descending: boolean;
}

/** One sort key's values over the candidates, by position: a class and a number or a text. */
export interface KeyColumn {
  readonly classes: Uint8Array;
  /** Numbers, and booleans as 0 / 1. */
  readonly numbers: Float64Array;
  /**
   * Strings, and arrays and objects as their canonical JSON; empty until the column meets one
   * (a slot per candidate took 0.6-1 ms to allocate for 126k candidates, which a key of
   * numbers never needs).
   */
  texts: (string | undefined)[];
  /**
   * ExactNumbers by position (their double is in `numbers`), so two of them, or one and a
   * double, compare by exact value (SPEC.md §10); empty until the column meets one.
   */
  readonly exacts: Map<number, ExactNumber>;
  readonly descending: boolean;
}

/** The extracted sort keys of `count` candidates (positions 0..count-1). */
export interface SortColumns {
  readonly columns: readonly KeyColumn[];
  readonly count: number;
  /** Candidates whose value resolved, per key (a key that resolved on none is an unresolved path). */
  readonly resolved: Float64Array;
}

/** Columns for `count` candidates, to be filled by extractSortKeys. */
export function createSortColumns(keys: readonly SortKeyReader[], count: number): SortColumns {
  return {
    columns: keys.map((key) => ({
      classes: new Uint8Array(count),
      numbers: new Float64Array(count),
      texts: [],
      exacts: new Map<number, ExactNumber>(),
      descending: key.descending,
    })),
    count,
    resolved: new Float64Array(keys.length),
  };
}

/**
 * Columns kept for the life of the process so the shape (V8 hidden class) of a column object
 * never dies: the scan loops' optimized code checks it, and a full GC that finds no column alive
 * between two requests collects it and throws that code away (measured: the first sort after
 * each full collection ran 2-3x slower while it was optimized again). Empty, so it holds nothing.
 */
export const KEPT_COLUMNS: SortColumns = createSortColumns(
  [{ read: () => undefined, measure: false, descending: false }],
  0,
);

/** The column's texts, given a slot per candidate on first use. */
function textsOf(column: KeyColumn): (string | undefined)[] {
  if (column.texts.length === 0)
    column.texts = new Array<string | undefined>(column.classes.length);
  return column.texts;
}

/** Writes one extracted value (its length under measure) into a column. */
function store(column: KeyColumn, position: number, raw: unknown, measure: boolean): void {
  const value = measure ? lengthOf(raw) : raw;
  switch (typeof value) {
    case "number":
      column.classes[position] = NUMBER_CLASS;
      column.numbers[position] = value;
      return;
    case "string":
      column.classes[position] = STRING_CLASS;
      textsOf(column)[position] = value;
      return;
    case "boolean":
      column.classes[position] = BOOLEAN_CLASS;
      column.numbers[position] = value ? 1 : 0;
      return;
    case "object":
      if (value === null) column.classes[position] = MISSING_CLASS;
      else if (isExactNumber(value)) {
        column.classes[position] = NUMBER_CLASS;
        column.numbers[position] = exactDouble(value);
        column.exacts.set(position, value);
      } else {
        column.classes[position] = STRUCTURED_CLASS;
        textsOf(column)[position] = canonicalJson(value);
      }
      return;
    default:
      column.classes[position] = MISSING_CLASS;
  }
}

// One loop per way of reading, so each loop's property feedback stays about one path (one loop
// for every key measured 2x slower with a two-step key beside a one-key key).

function extractOwnKey(
  column: KeyColumn,
  key: string,
  measure: boolean,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  let resolved = 0;
  for (let position = start; position < end; position += 1) {
    const item = items[indices === null ? position : (indices[position] as number)];
    const raw =
      typeof item === "object" && item !== null && !Array.isArray(item)
        ? (item as Record<string, unknown>)[key]
        : undefined;
    if (raw !== undefined) resolved += 1;
    store(column, position, raw, measure);
  }
  return resolved;
}

function extractSteps(
  column: KeyColumn,
  steps: readonly PathStep[],
  measure: boolean,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  let resolved = 0;
  for (let position = start; position < end; position += 1) {
    const raw = readSteps(
      items[indices === null ? position : (indices[position] as number)],
      steps,
    );
    if (raw !== undefined) resolved += 1;
    store(column, position, raw, measure);
  }
  return resolved;
}

/**
 * extractSteps for a path of exactly two steps (`/position/1`, `/stats/views`), the common sort
 * key below the item: the same reads as readSteps, written out in the loop with the steps'
 * fields in locals, and a number stored without going through `store` (measured on 48k nodes:
 * 5.2 ms through readSteps, 3.6 ms here).
 */
function extractTwoSteps(
  column: KeyColumn,
  steps: readonly PathStep[],
  measure: boolean,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  const { token: token0, index: index0, inherited: inherited0 } = steps[0] as PathStep;
  const { token: token1, index: index1, inherited: inherited1 } = steps[1] as PathStep;
  const classes = column.classes;
  const numbers = column.numbers;
  let resolved = 0;
  for (let position = start; position < end; position += 1) {
    const item = items[indices === null ? position : (indices[position] as number)];
    let raw: unknown;
    if (typeof item === "object" && item !== null) {
      let first: unknown;
      if (Array.isArray(item)) first = index0 < 0 ? undefined : item[index0];
      else {
        first = (item as Record<string, unknown>)[token0];
        if (inherited0 && first !== undefined && !Object.hasOwn(item, token0)) first = undefined;
      }
      if (typeof first === "object" && first !== null) {
        if (Array.isArray(first)) raw = index1 < 0 ? undefined : first[index1];
        else {
          raw = (first as Record<string, unknown>)[token1];
          if (inherited1 && raw !== undefined && !Object.hasOwn(first, token1)) raw = undefined;
        }
      }
    }
    if (raw === undefined) {
      classes[position] = MISSING_CLASS;
      continue;
    }
    resolved += 1;
    // A fresh column's classes are all NUMBER_CLASS (0): a number needs only its value.
    if (typeof raw === "number" && !measure) numbers[position] = raw;
    else store(column, position, raw, measure);
  }
  return resolved;
}

function extractRead(
  column: KeyColumn,
  reader: SortKeyReader,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  let resolved = 0;
  for (let position = start; position < end; position += 1) {
    const index = indices === null ? position : (indices[position] as number);
    const raw = reader.read(items[index], index);
    if (raw !== undefined) resolved += 1;
    store(column, position, raw, reader.measure);
  }
  return resolved;
}

/**
 * Writes the real value of every cell a gather left pending in `start` to `end`, read through the
 * key's reader (the rare cells: not a number, missing, an array item); how many of them resolved.
 */
function fillPending(
  column: KeyColumn,
  reader: SortKeyReader,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  const classes = column.classes;
  let resolved = 0;
  for (let position = start; position < end; position += 1) {
    if (classes[position] !== PENDING_CLASS) continue;
    const index = indices === null ? position : (indices[position] as number);
    const raw = reader.read(items[index], index);
    if (raw !== undefined) resolved += 1;
    store(column, position, raw, false);
  }
  return resolved;
}

/** Reads one key over `start` to `end` by the loop for its way of reading; how many resolved. */
function extractGeneral(
  column: KeyColumn,
  reader: SortKeyReader,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  return reader.ownKey !== undefined
    ? extractOwnKey(column, reader.ownKey, reader.measure, items, indices, start, end)
    : reader.steps?.length === 2
      ? extractTwoSteps(column, reader.steps, reader.measure, items, indices, start, end)
      : reader.steps !== undefined
        ? extractSteps(column, reader.steps, reader.measure, items, indices, start, end)
        : extractRead(column, reader, items, indices, start, end);
}

/** Gathers `start` to `end` (see sort-gather.ts); how many cells it left pending. */
function gatherRange(
  column: KeyColumn,
  reader: SortKeyReader,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  const { classes, numbers } = column;
  if (reader.ownKey !== undefined) {
    return gatherOwnKey(classes, numbers, reader.ownKey, items, indices, start, end);
  }
  const [first, second] = reader.steps as [PathStep, PathStep];
  return gatherTwoSteps(classes, numbers, first, second, items, indices, start, end);
}

/**
 * Candidates a chunk gathers first to see whether its key holds numbers: when more than half of
 * them are no number (a key of strings), the rest of the chunk is read by the general loop, which
 * reads each item once, instead of by a gather and a second pass over nearly every cell; a chunk
 * right after a cell that read as no number skips the probe too. Measured on a string key
 * (`/name`) of 126k items, in one process against the general loop alone: gather and second pass
 * about 1 ms more CPU (10%), probe alone 0.5-1 ms more, probe and skip no more.
 */
const PROBE_ITEMS = 64;

/**
 * Reads one key over `start` to `end` by a number gather (sort-gather.ts) and a pass over what it
 * left pending, when the key allows one (no measure, one own key or two steps naming no
 * Object.prototype member) and holds numbers; how many cells resolved.
 */
function extractKey(
  column: KeyColumn,
  reader: SortKeyReader,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): number {
  const gathers =
    !reader.measure &&
    (reader.ownKey !== undefined || (reader.steps !== undefined && gathersTwoSteps(reader.steps)));
  // A cell just before the range read as no number (the previous chunk of a key of strings):
  // the general loop, without a probe.
  const after = start > 0 && (column.classes[start - 1] as number) !== NUMBER_CLASS;
  if (!gathers || after) return extractGeneral(column, reader, items, indices, start, end);
  const probeEnd = Math.min(end, start + PROBE_ITEMS);
  let pending = gatherRange(column, reader, items, indices, start, probeEnd);
  let gatheredEnd = probeEnd;
  if (2 * pending <= probeEnd - start) {
    pending += gatherRange(column, reader, items, indices, probeEnd, end);
    gatheredEnd = end;
  }
  let resolved = gatheredEnd - start - pending;
  if (pending > 0) resolved += fillPending(column, reader, items, indices, start, gatheredEnd);
  if (gatheredEnd < end)
    resolved += extractGeneral(column, reader, items, indices, gatheredEnd, end);
  return resolved;
}

/**
 * Reads the sort keys of candidate positions `start` to `end` (exclusive). Position p is the item
 * `indices[p]` (or item p when indices is null: nothing was filtered). A driver may call it over
 * slices in any order: every position is a safe slice boundary, and each writes only its own cells.
 */
export function extractSortKeys(
  columns: SortColumns,
  keys: readonly SortKeyReader[],
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): void {
  for (let key = 0; key < keys.length; key += 1) {
    const reader = keys[key] as SortKeyReader;
    const column = columns.columns[key] as KeyColumn;
    const resolved = extractKey(column, reader, items, indices, start, end);
    columns.resolved[key] = (columns.resolved[key] as number) + resolved;
  }
}

/** Two number cells by exact value: an ExactNumber's literal, else the double. */
function compareExactCells(column: KeyColumn, a: number, b: number): number {
  const left = column.exacts.get(a) ?? (column.numbers[a] as number);
  const right = column.exacts.get(b) ?? (column.numbers[b] as number);
  return compareNumeric(left, right);
}

/** Compares positions a and b by every key, then by position: a total order. */
function comparePositions(columns: readonly KeyColumn[], a: number, b: number): number {
  for (let key = 0; key < columns.length; key += 1) {
    const column = columns[key] as KeyColumn;
    const classA = column.classes[a] as number;
    const classB = column.classes[b] as number;
    let order = 0;
    if (classA !== classB) {
      // Missing and null follow every present value, in both orders.
      if (classA === MISSING_CLASS) return 1;
      if (classB === MISSING_CLASS) return -1;
      order = classA < classB ? -1 : 1;
    } else if (classA === MISSING_CLASS) {
      continue;
    } else if (classA === NUMBER_CLASS || classA === BOOLEAN_CLASS) {
      const left = column.numbers[a] as number;
      const right = column.numbers[b] as number;
      order = left < right ? -1 : left > right ? 1 : 0;
      if (column.exacts.size > 0 && classA === NUMBER_CLASS) {
        order = compareExactCells(column, a, b);
      }
    } else {
      const left = column.texts[a] as string;
      const right = column.texts[b] as string;
      order = left < right ? -1 : left > right ? 1 : 0;
    }
    if (order !== 0) return column.descending ? -order : order;
  }
  return a - b;
}

function siftDown(heap: Int32Array, size: number, columns: readonly KeyColumn[]): void {
  let parent = 0;
  for (;;) {
    const left = 2 * parent + 1;
    if (left >= size) return;
    const right = left + 1;
    let larger = left;
    if (
      right < size &&
      comparePositions(columns, heap[right] as number, heap[left] as number) > 0
    ) {
      larger = right;
    }
    if (comparePositions(columns, heap[larger] as number, heap[parent] as number) <= 0) return;
    const swap = heap[parent] as number;
    heap[parent] = heap[larger] as number;
    heap[larger] = swap;
    parent = larger;
  }
}

function siftUp(heap: Int32Array, at: number, columns: readonly KeyColumn[]): void {
  let child = at;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (comparePositions(columns, heap[child] as number, heap[parent] as number) <= 0) return;
    const swap = heap[parent] as number;
    heap[parent] = heap[child] as number;
    heap[child] = swap;
    child = parent;
  }
}

/** Offers candidates `start` to `end` to a bounded max-heap of `size` entries; the new size. */
function offerRange(
  columns: readonly KeyColumn[],
  heap: Int32Array,
  size: number,
  start: number,
  end: number,
): number {
  const limit = heap.length;
  let kept = size;
  for (let position = start; position < end; position += 1) {
    if (kept < limit) {
      heap[kept] = position;
      siftUp(heap, kept, columns);
      kept += 1;
    } else if (comparePositions(columns, position, heap[0] as number) < 0) {
      heap[0] = position;
      siftDown(heap, kept, columns);
    }
  }
  return kept;
}

/**
 * The first `limit` positions of the order by a bounded max-heap of `limit` entries: one
 * comparison with the heap's worst entry for most candidates, so a first page costs O(n log k),
 * not a full sort. The candidates are offered in chunks with a yield between two (SPEC.md §9
 * rule 6).
 */
function* topPositions(
  columns: readonly KeyColumn[],
  count: number,
  limit: number,
): Work<Int32Array> {
  const heap = new Int32Array(limit);
  let size = 0;
  yield* inChunks(count, (start, end) => {
    size = offerRange(columns, heap, size, start, end);
  });
  const top = heap.subarray(0, size);
  top.sort((a, b) => comparePositions(columns, a, b));
  return top;
}

/**
 * topPositions for one key whose candidates are all numbers (the usual "top 20 by views"): the
 * same order (the number, negated when descending, then the position) by selectTopNumbers
 * (sort-top-numbers.ts), which compares the numbers directly instead of through the columns and
 * yields between chunks. Null when a candidate is not a number or is an ExactNumber.
 */
function* topNumberPositions(
  columns: readonly KeyColumn[],
  count: number,
  limit: number,
): Work<Int32Array | null> {
  const column = columns[0] as KeyColumn;
  if (column.exacts.size > 0) return null;
  const classes = column.classes;
  for (let position = 0; position < count; position += 1) {
    if (classes[position] !== NUMBER_CLASS) return null;
  }
  if (limit === 0) return new Int32Array(0);
  const top = yield* selectTopNumbers(column.numbers, column.descending ? -1 : 1, count, limit);
  top.sort((a, b) => comparePositions(columns, a, b));
  return top;
}

/** A heap pays off while it keeps a small part of the candidates; beyond, sort them all. */
const TOP_K_SHARE = 4;

/**
 * The candidates' positions in sort order, at least the first `limit` of them (all of them when
 * it sorts fully). This is the one function that orders a view; the view cache keeps what it
 * returns (collection-view.ts, sortCandidates). A first page (`limit` = offset + pageSize, small) uses a bounded heap; a limit
 * beyond a quarter of the candidates sorts them all, in steps that yield (sortInSteps); the heaps
 * yield between chunks of candidates too, so a driver can pause either (SPEC.md §9 rule 6).
 */
export function* orderPositions(columns: SortColumns, limit: number): Work<Int32Array> {
  const count = columns.count;
  const bounded = Math.max(0, Math.min(limit, count));
  if (bounded * TOP_K_SHARE < count) {
    const numeric =
      columns.columns.length === 1
        ? yield* topNumberPositions(columns.columns, count, bounded)
        : null;
    return numeric ?? (yield* topPositions(columns.columns, count, bounded));
  }
  const all = new Int32Array(count);
  for (let position = 0; position < count; position += 1) all[position] = position;
  return yield* sortInSteps(all, (a, b) => comparePositions(columns.columns, a, b));
}

/** orderPositions run to its end in one call. */
export function sortedPositions(columns: SortColumns, limit: number): Int32Array {
  return runToEnd(orderPositions(columns, limit));
}
