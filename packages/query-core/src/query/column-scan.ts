import type { CompiledPath } from "./compiled-path.js";
import type { CompiledFilter } from "./filters.js";
import {
  type ColumnStore,
  columnBytesAtMost,
  createColumn,
  FALSE_SLOT,
  FIRST_STRING_SLOT,
  fillColumn,
  fillTwoColumns,
  hasColumnKey,
  MISSING_SLOT,
  NULL_SLOT,
  NUMBER_SLOT,
  OTHER_SLOT,
  type PathColumn,
  stepsKey,
  TRUE_SLOT,
} from "./path-columns.js";

// Filters decided over path columns (path-columns.ts) instead of item objects: one tight loop per
// filter over its column's slots, ANDed into a keep mask, then the kept indices. Every decision is
// the filter's own compiled `test` (so exactly the generic filters, SPEC.md §9, §10): made once
// per distinct string and per constant kind before the loop (a table the loop looks up), called
// on the item's value for OTHER_SLOT, and for numbers written out only for the plain comparisons
// whose `test` on a number is that comparison (eq, ne, lt, lte, gt, gte with a plain number).

/** How a number slot is decided: through `test`, or one of the plain comparisons inline. */
const NUMBER_TEST = 0;
const NUMBER_EQUAL = 1;
const NUMBER_NOT_EQUAL = 2;
const NUMBER_LESS = 3;
const NUMBER_AT_MOST = 4;
const NUMBER_MORE = 5;
const NUMBER_AT_LEAST = 6;

function numberOpOf(filter: CompiledFilter): number {
  if (filter.measure || typeof filter.expected !== "number") return NUMBER_TEST;
  switch (filter.op) {
    case "eq":
      return NUMBER_EQUAL;
    case "ne":
      return NUMBER_NOT_EQUAL;
    case "lt":
      return NUMBER_LESS;
    case "lte":
      return NUMBER_AT_MOST;
    case "gt":
      return NUMBER_MORE;
    case "gte":
      return NUMBER_AT_LEAST;
    default:
      return NUMBER_TEST;
  }
}

/** One filter with its column and its decision table for this request. */
interface ColumnFilter {
  readonly filter: CompiledFilter;
  readonly column: PathColumn;
  /** True when the column is laid out by this scan (and kept at its end). */
  readonly building: boolean;
  /** 1 where `test` holds on the slot's value (constant kinds and coded strings). */
  hits: Uint8Array;
  readonly numberOp: number;
  readonly expected: number;
}

/** The decision of every constant slot and every coded string, from the filter's `test`. */
function decisionTable(filter: CompiledFilter, column: PathColumn, from: number): Uint8Array {
  const strings = column.strings;
  const test = filter.test;
  const hits = new Uint8Array(FIRST_STRING_SLOT + strings.length);
  if (from === 0) {
    hits[MISSING_SLOT] = test(undefined) ? 1 : 0;
    hits[NULL_SLOT] = test(null) ? 1 : 0;
    hits[FALSE_SLOT] = test(false) ? 1 : 0;
    hits[TRUE_SLOT] = test(true) ? 1 : 0;
  }
  for (let code = Math.max(from, FIRST_STRING_SLOT); code < hits.length; code += 1) {
    hits[code] = test(strings[code - FIRST_STRING_SLOT] as string) ? 1 : 0;
  }
  return hits;
}

/** The table grown to the strings a column being built has coded so far. */
function growTable(entry: ColumnFilter): void {
  const old = entry.hits;
  const length = FIRST_STRING_SLOT + entry.column.strings.length;
  if (old.length === length) return;
  const grown = decisionTable(entry.filter, entry.column, old.length);
  grown.set(old);
  entry.hits = grown;
}

/**
 * Decides one filter over items [start, end) from its column: clears `keep[index - start]` where
 * it fails (the first filter sets every entry), adds its matched count at `counts[at + 1]`.
 */
function decideRange(
  entry: ColumnFilter,
  items: readonly unknown[],
  start: number,
  end: number,
  keep: Uint8Array,
  first: boolean,
  counts: Float64Array,
  at: number,
): void {
  const slots = entry.column.slots;
  const numbers = entry.column.numbers;
  const hits = entry.hits;
  const op = entry.numberOp;
  const expected = entry.expected;
  const filter = entry.filter;
  let matched = 0;
  for (let index = start; index < end; index += 1) {
    const slot = slots[index] as number;
    let hit: boolean;
    if (slot === NUMBER_SLOT) {
      const value = (numbers as Float64Array)[index] as number;
      hit =
        op === NUMBER_EQUAL
          ? value === expected
          : op === NUMBER_NOT_EQUAL
            ? value !== expected
            : op === NUMBER_LESS
              ? value < expected
              : op === NUMBER_AT_MOST
                ? value <= expected
                : op === NUMBER_MORE
                  ? value > expected
                  : op === NUMBER_AT_LEAST
                    ? value >= expected
                    : filter.test(value);
    } else if (slot === OTHER_SLOT) hit = filter.test(filter.path.read(items[index], index));
    else hit = hits[slot] === 1;
    matched += hit ? 1 : 0;
    const position = index - start;
    if (first) keep[position] = hit ? 1 : 0;
    else if (!hit) keep[position] = 0;
  }
  counts[at + 1] = (counts[at + 1] as number) + matched;
}

/** True when every slot laid out so far is decided by the table (no number, no OTHER_SLOT). */
function byTable(entry: ColumnFilter): boolean {
  return entry.column.numbers === null && entry.column.others === 0;
}

/**
 * One or two filters whose slots are all decided by their tables (the usual strings, booleans
 * and nulls): both looked up per item with no branch but the kept index, matched counts in
 * locals, no keep mask. With one filter, pass it twice (its count lands once, at counts[1]).
 */
function decideTables(
  slots0: Int32Array,
  hits0: Uint8Array,
  slots1: Int32Array,
  hits1: Uint8Array,
  start: number,
  end: number,
  indices: number[],
  counts: Float64Array,
  two: boolean,
): void {
  let matched0 = 0;
  let matched1 = 0;
  for (let index = start; index < end; index += 1) {
    const hit0 = hits0[slots0[index] as number] as number;
    const hit1 = hits1[slots1[index] as number] as number;
    matched0 += hit0;
    matched1 += hit1;
    if ((hit0 & hit1) === 1) indices.push(index);
  }
  counts[1] = (counts[1] as number) + matched0;
  if (two) counts[3] = (counts[3] as number) + matched1;
}

/** A scan of plain filters over columns (createColumnScan). */
export interface ColumnScan {
  /** Decides items [start, end) (in order from 0), laying out missing columns first. */
  scan(start: number, end: number, counts: Float64Array, indices: number[]): void;
  /**
   * Once the scan reached the last item: writes each filter's resolvedOn (its column's count)
   * into `counts` and keeps the columns this scan laid out.
   */
  finish(counts: Float64Array): void;
}

/**
 * A column scan of the filters over the items, or null when columns do not apply: no store, a
 * collection under the store's `minItems`, an anyOf, a path that has no column key, or columns
 * to lay out that the store's budget could not keep (columnBytesAtMost each). Columns the
 * store keeps are used as they are; missing ones are laid out range by range as the scan goes and
 * kept by `finish`, so a later request over the same paths (any values, ops) finds them. The
 * counts land where createFilterScan's loops put them (resolvedOn and matched of filter n at 2n
 * and 2n + 1), the indices in item order.
 */
export function createColumnScan(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
  store: ColumnStore | null,
): ColumnScan | null {
  if (store === null || items.length < store.minItems || filters.length === 0) return null;
  for (const filter of filters) {
    if (filter.anyOf !== null || !hasColumnKey(filter.path)) return null;
  }
  // Two filters on one path share one column.
  const columns = new Map<string, { column: PathColumn; building: boolean }>();
  const entries = filters.map((filter): ColumnFilter => {
    const key = stepsKey(filter.path);
    let found = columns.get(key);
    if (found === undefined) {
      const kept = store.get(items, filter.path);
      found =
        kept === undefined
          ? { column: createColumn(items), building: true }
          : { column: kept, building: false };
      columns.set(key, found);
    }
    return {
      filter,
      column: found.column,
      building: found.building,
      hits: decisionTable(filter, found.column, 0),
      numberOp: numberOpOf(filter),
      expected: typeof filter.expected === "number" ? filter.expected : 0,
    };
  });
  const building = [...columns.values()].filter((found) => found.building);
  if (building.length * columnBytesAtMost(items.length) > store.maxBytes) return null;
  const builders = building.map((found) => {
    const entry = entries.find((candidate) => candidate.column === found.column) as ColumnFilter;
    return { column: found.column, path: entry.filter.path };
  });
  // Every member in one literal: one hidden class for every scan's state.
  const state: ColumnScanState = {
    items,
    store,
    entries,
    builders,
    keep: new Uint8Array(0),
    scan: scanColumns,
    finish: finishColumns,
  };
  return state;
}

/** What one column scan works with (its scan and finish are scanColumns and finishColumns). */
interface ColumnScanState extends ColumnScan {
  readonly items: readonly unknown[];
  readonly store: ColumnStore;
  readonly entries: readonly ColumnFilter[];
  /** The columns this scan lays out, with their paths (two at most in one pass). */
  readonly builders: ReadonlyArray<{ readonly column: PathColumn; readonly path: CompiledPath }>;
  /** The keep mask of decideRange, grown to the largest range. */
  keep: Uint8Array;
}

// scan and finish are functions made once for the process and called on the scan's state, not
// closures made per scan: V8 holds a closure's optimized code only through the closures, so a
// full collection between two queries dropped it and every first question after one compiled
// the scan again (with the loops it inlines, about 12 ms of compile on a background thread,
// --trace-opt; counted in the process's CPU while the next query ran).
function scanColumns(
  this: ColumnScanState,
  start: number,
  end: number,
  counts: Float64Array,
  indices: number[],
): void {
  const items = this.items;
  const entries = this.entries;
  const builders = this.builders;
  const build0 = builders[0];
  const build1 = builders[1];
  // Up to two columns laid out in one pass over the items; any further one alone.
  if (build0 !== undefined) {
    const other = build1 ?? build0;
    fillTwoColumns(
      build0.column,
      build0.path,
      build1 === undefined ? null : build1.column,
      other.path,
      items,
      start,
      end,
    );
  }
  for (let at = 2; at < builders.length; at += 1) {
    const { column, path } = builders[at] as (typeof builders)[number];
    fillColumn(column, items, path, start, end);
  }
  for (const entry of entries) if (entry.building) growTable(entry);
  const first = entries[0] as ColumnFilter;
  const last = entries[entries.length - 1] as ColumnFilter;
  if (entries.length <= 2 && byTable(first) && byTable(last)) {
    const { slots: slots0 } = first.column;
    const { slots: slots1 } = last.column;
    decideTables(
      slots0,
      first.hits,
      slots1,
      last.hits,
      start,
      end,
      indices,
      counts,
      entries.length === 2,
    );
    return;
  }
  if (this.keep.length < end - start) this.keep = new Uint8Array(end - start);
  const keep = this.keep;
  for (let position = 0; position < entries.length; position += 1) {
    decideRange(
      entries[position] as ColumnFilter,
      items,
      start,
      end,
      keep,
      position === 0,
      counts,
      2 * position,
    );
  }
  for (let index = start; index < end; index += 1) {
    if (keep[index - start] === 1) indices.push(index);
  }
}

function finishColumns(this: ColumnScanState, counts: Float64Array): void {
  this.entries.forEach((entry, position) => {
    counts[2 * position] = entry.column.resolved;
  });
  for (const { column, path } of this.builders) {
    if (column.built === this.items.length) this.store.set(this.items, path, column);
  }
}
