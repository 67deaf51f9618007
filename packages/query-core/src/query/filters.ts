import {
  type Filter,
  type FilterApplied,
  type FilterOp,
  isAnyOfFilter,
  type LeafFilter,
} from "@bounded-mcp/contract";
import { compareNumeric, isExactNumber, isNumeric } from "../exact/exact-number.js";
import { createColumnScan } from "./column-scan.js";
import { type CompiledPath, compileFilterPath } from "./compiled-path.js";
import {
  applyAnyFilters,
  applyAnyOfIcontains,
  applyFiltersWithAnyOf,
  applyOwnKeyComparisons,
  type Comparison,
  comparisonOf,
  type FilterGroup,
  filterGroupsOf,
  GENERAL,
  icontainsMatches,
  isPlainIcontains,
  type ScanRange,
} from "./filter-loops.js";
import { type IcontainsNeedle, icontainsNeedle } from "./icontains-needle.js";
import { isJsonObject, jsonEquals } from "./json-values.js";
import type { ColumnStore } from "./path-columns.js";
import { lengthOf } from "./sort-values.js";
import { createTextScan } from "./text-columns.js";

/** A filter compiled once per request: its path parsed and its comparison chosen. */
export interface CompiledFilter {
  /** The path (for an anyOf: its first filter's path; read `anyOf` instead). */
  readonly path: CompiledPath;
  readonly op: FilterOp;
  /** `measure: "length"`: the test decides the value's length (undefined when it has none). */
  readonly measure: boolean;
  /** Decides one resolved value (`undefined` when the path did not resolve on the item). */
  readonly test: (actual: unknown) => boolean;
  /** How the loops decide `test` inline (GENERAL: they call `test`). */
  readonly comparison: Comparison;
  /** The filter's value (what an inline comparison compares with). */
  readonly expected: unknown;
  /** The candidates of an inline `in` (empty for every other comparison). */
  readonly candidates: ReadonlySet<unknown>;
  /** The filters of an anyOf (SPEC.md §9): it holds when any of them holds; null for a plain one. */
  readonly anyOf: readonly CompiledFilter[] | null;
  /**
   * For `icontains` with a non-empty ASCII value (not under measure): the lowered value prepared
   * for includesNeedle (icontains-needle.ts), so a loop decides the test through a long-lived
   * function; null otherwise.
   */
  readonly needle: IcontainsNeedle | null;
}

/** The outcome of filtering a collection: matching indices (null: all) and honest counts. */
export interface FilterOutcome {
  indices: number[] | null;
  applied: FilterApplied[];
}

function isOrderable(left: unknown, right: unknown): boolean {
  const type = typeof left;
  return (type === "number" || type === "string") && typeof right === type;
}

/**
 * The order of `actual` against an ordering filter's value: numbers (ExactNumbers by exact value,
 * SPEC.md §10) with a number, strings with a string; NaN (no order) otherwise.
 */
function orderOf(actual: unknown, expected: unknown): number {
  if (isExactNumber(actual) || isExactNumber(expected)) {
    return isNumeric(actual) && isNumeric(expected) ? compareNumeric(actual, expected) : Number.NaN;
  }
  if (!isOrderable(actual, expected)) return Number.NaN;
  return (actual as number) < (expected as number)
    ? -1
    : (actual as number) > (expected as number)
      ? 1
      : 0;
}

function createInTest(expected: unknown): (actual: unknown) => boolean {
  const candidates = Array.isArray(expected) ? expected : [];
  const primitives = new Set(candidates.filter((value) => typeof value !== "object"));
  const structured = candidates.filter((value) => typeof value === "object");
  return (actual) => {
    if (actual === undefined) return false;
    if (typeof actual !== "object") {
      if (primitives.has(actual)) return true;
      // A request's ExactNumber `-0` equals a document's 0 (SPEC.md §10).
      return actual === 0 && structured.some((candidate) => jsonEquals(actual, candidate));
    }
    if (isExactNumber(actual)) return candidates.some((candidate) => jsonEquals(actual, candidate));
    for (const candidate of structured) if (jsonEquals(actual, candidate)) return true;
    return false;
  };
}

function createIcontainsTest(expected: unknown): (actual: unknown) => boolean {
  const needle = typeof expected === "string" ? expected.toLowerCase() : null;
  if (needle === null) return () => false;
  const prepared = icontainsNeedle(needle);
  if (prepared !== null) return (actual) => icontainsMatches(prepared, actual);
  const contains = (text: string) => text.toLowerCase().includes(needle);
  return (actual) => {
    if (typeof actual === "string") return contains(actual);
    if (!Array.isArray(actual)) return false;
    // SPEC.md §9 rule 4: on an array, any string element that contains the value.
    for (const element of actual) {
      if (typeof element === "string" && contains(element)) return true;
    }
    return false;
  };
}

function createTest(op: FilterOp, expected: unknown): (actual: unknown) => boolean {
  switch (op) {
    case "eq":
      return typeof expected === "object" && expected !== null
        ? (actual) => actual !== undefined && jsonEquals(actual, expected)
        : (actual) =>
            actual === expected || (isExactNumber(actual) && jsonEquals(actual, expected));
    case "ne":
      return (actual) => actual !== undefined && !jsonEquals(actual, expected);
    case "in":
      return createInTest(expected);
    case "nin": {
      const within = createInTest(expected);
      return (actual) => actual !== undefined && !within(actual);
    }
    case "contains":
      return (actual) => {
        if (typeof actual === "string") {
          return typeof expected === "string" && actual.includes(expected);
        }
        if (Array.isArray(actual)) {
          for (const element of actual) if (jsonEquals(element, expected)) return true;
          return false;
        }
        return (
          isJsonObject(actual) && typeof expected === "string" && Object.hasOwn(actual, expected)
        );
      };
    case "icontains":
      return createIcontainsTest(expected);
    case "lt":
      return (actual) => orderOf(actual, expected) < 0;
    case "lte":
      return (actual) => orderOf(actual, expected) <= 0;
    case "gt":
      return (actual) => orderOf(actual, expected) > 0;
    case "gte":
      return (actual) => orderOf(actual, expected) >= 0;
    case "exists": {
      const wanted = expected !== false;
      return (actual) => (actual !== undefined) === wanted;
    }
  }
}

function compileLeaf(filter: LeafFilter): CompiledFilter {
  const op = filter.op ?? "eq";
  const expected = filter.value;
  const measure = filter.measure === "length";
  const valueTest = createTest(op, expected);
  // Under measure the test sees the length; a value without one is like a missing value, so
  // every op is false on it except exists (SPEC.md §9 rule 4).
  const test = measure ? (actual: unknown) => valueTest(lengthOf(actual)) : valueTest;
  // An ExactNumber value (read from the raw request, SPEC.md §10) compares through the test.
  const comparison = measure || isExactNumber(expected) ? GENERAL : comparisonOf(op, expected);
  return {
    path: compileFilterPath(filter.path),
    op,
    measure,
    test,
    comparison,
    expected,
    candidates: new Set(op === "in" && comparison !== GENERAL ? (expected as unknown[]) : []),
    anyOf: null,
    needle:
      op === "icontains" && !measure && typeof expected === "string"
        ? icontainsNeedle(expected.toLowerCase())
        : null,
  };
}

/**
 * Compiles the request's filters (SPEC.md §4.6, §9): op `eq` by default; `eq`/`ne`/`in`/`nin`
 * compare deeply (a primitive compares with `===`, no serialization); `contains` is substring,
 * array element or own key; `icontains` a case-insensitive substring of a string or of a string
 * element of an array; ordering ops need two numbers or two strings; `exists` compares "resolves"
 * with its boolean (default true); `measure: "length"` decides the length instead. A path that
 * does not resolve on an item matches only `exists: false` (`ne` and `nin` included). An anyOf
 * compiles its filters the same way.
 */
export function compileFilters(filters: readonly Filter[]): CompiledFilter[] {
  return filters.map((filter) => {
    if (!isAnyOfFilter(filter)) return compileLeaf(filter);
    const inner = filter.anyOf.map(compileLeaf);
    const first = inner[0] as CompiledFilter;
    return { ...first, op: "eq", measure: false, comparison: GENERAL, anyOf: inner, needle: null };
  });
}

/** Every path a filter reads: its own, or those of its anyOf. */
export function filterPaths(filter: CompiledFilter): CompiledPath[] {
  return filter.anyOf === null ? [filter.path] : filter.anyOf.map((inner) => inner.path);
}

/** The filter with every path it reads rewritten (objectMode rebasing, prefix recovery). */
export function mapFilterPaths(
  filter: CompiledFilter,
  rewrite: (path: CompiledPath) => CompiledPath,
): CompiledFilter {
  if (filter.anyOf === null) return { ...filter, path: rewrite(filter.path) };
  const inner = filter.anyOf.map((leaf) => ({ ...leaf, path: rewrite(leaf.path) }));
  return { ...filter, path: (inner[0] as CompiledFilter).path, anyOf: inner };
}

/**
 * A filter scan a caller may run in slices: `scan(start, end)` over consecutive ranges of item
 * indices (in order, from 0 to items.length; any index is a safe boundary), then `finish()`.
 */
export interface FilterScan {
  scan(start: number, end: number): void;
  finish(): FilterOutcome;
}

/** The counts of one plain filter in filtersApplied. */
type LeafApplied = Extract<FilterApplied, { path: string }>;

function appliedOf(filter: CompiledFilter, resolvedOn: number, matched: number): LeafApplied {
  if (filter.measure) {
    return { path: filter.path.label, op: filter.op, measure: "length", resolvedOn, matched };
  }
  return { path: filter.path.label, op: filter.op, resolvedOn, matched };
}

/**
 * Starts a scan that evaluates every filter on every item (no short-circuit), so `resolvedOn` and
 * `matched` are honest counts over the whole selection, not over the returned page; an item is
 * kept when all match. No plain loop allocates or calls a closure made for the request per item,
 * except a GENERAL test. One or two comparisons (eq, ne, in, lt, lte, gt, gte on primitives) at
 * one own property each (the common case) run on a loop of their own with reads and comparisons
 * inline; other plain filters run on a loop where the first two filters are unpacked into locals
 * (a one-property path read inline, a deeper one walked by the loop's own step functions, a
 * comparison decided inline, anything else through the filter's test) and further filters go
 * through their compiled reader and test; filters with an anyOf run on a loop of their own, and
 * an anyOf of two ASCII icontains filters at one own key or two steps each, alone, on a loop made
 * for it (applyAnyOfIcontains: both needles searched on every item, counted in locals).
 * With a column store (a view cache) and plain filters over a large enough collection, the
 * filters are decided over path columns instead (column-scan.ts): columns already kept are used,
 * missing ones laid out as the scan goes and kept when it finishes; the outcome is the same. An
 * anyOf of ASCII icontains filters, alone, is decided over text columns the same way
 * (text-columns.ts: a RegExp search of each path's strings joined into one text).
 */
export function createFilterScan(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
  columns: ColumnStore | null = null,
): FilterScan {
  const count = filters.length;
  const last = filters[count - 1];
  const range: ScanRange = {
    start: 0,
    end: 0,
    counts: new Float64Array(2 * Math.max(count, 2)),
    indices: [],
  };
  const columnScan = createColumnScan(items, filters, columns);
  const withAnyOf = filters.some((filter) => filter.anyOf !== null);
  const innerCounts = filters.map(
    (filter) => new Float64Array(2 * (filter.anyOf === null ? 0 : filter.anyOf.length)),
  );
  const groups = withAnyOf ? filterGroupsOf(filters, innerCounts) : [];
  const plainIcontains = count === 1 && withAnyOf && isPlainIcontains(groups[0] as FilterGroup);
  const textScan = createTextScan(items, filters, innerCounts[0], columns);
  const ownKeys =
    (count === 1 || count === 2) &&
    filters.every((filter) => filter.comparison !== GENERAL && filter.path.ownKey !== undefined);
  return {
    scan(start, end) {
      range.start = start;
      range.end = end;
      if (textScan !== null) textScan.scan(start, end, range.counts, range.indices);
      else if (columnScan !== null) columnScan.scan(start, end, range.counts, range.indices);
      else if (withAnyOf) {
        if (plainIcontains) applyAnyOfIcontains(items, groups[0] as FilterGroup, range);
        else applyFiltersWithAnyOf(items, groups, range);
      } else if (ownKeys) {
        applyOwnKeyComparisons(
          items,
          filters,
          filters[0]?.path.ownKey as string,
          last?.path.ownKey as string,
          range,
        );
      } else applyAnyFilters(items, filters, range);
    },
    finish() {
      const counts = range.counts;
      columnScan?.finish(counts);
      textScan?.finish();
      return {
        indices: range.indices,
        applied: filters.map((filter, position): FilterApplied => {
          const resolvedOn = counts[2 * position] as number;
          const matched = counts[2 * position + 1] as number;
          if (filter.anyOf === null) return appliedOf(filter, resolvedOn, matched);
          const inner = innerCounts[position] as Float64Array;
          return {
            anyOf: filter.anyOf.map((leaf, at) =>
              appliedOf(leaf, inner[2 * at] as number, inner[2 * at + 1] as number),
            ),
            resolvedOn,
            matched,
          };
        }),
      };
    },
  };
}

/** Applies the filters to every item in one call (createFilterScan over the whole range). */
export function applyFilters(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
): FilterOutcome {
  const scan = createFilterScan(items, filters);
  scan.scan(0, items.length);
  return scan.finish();
}
