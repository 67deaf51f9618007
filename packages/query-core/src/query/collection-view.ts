import type { FilterApplied } from "@bounded-mcp/contract";
import { inChunks, type Work } from "../schedule/work.js";
import { arrayBytes, stringBytes, typedBytes } from "../views/view-bytes.js";
import {
  type CompiledAggregate,
  createGrouping,
  finishRows,
  groupItems,
} from "./aggregate-rows.js";
import { type CompiledPath, resolvesOnAny } from "./compiled-path.js";
import type { CompiledSortKey } from "./extensions.js";
import { type CompiledFilter, createFilterScan } from "./filters.js";
import type { ColumnStore } from "./path-columns.js";
import type { UnresolvedPath } from "./path-errors.js";
import {
  createSortColumns,
  extractSortKeys,
  orderPositions,
  type SortColumns,
  type SortKeyReader,
} from "./sort-order.js";
import { STRUCTURED_CLASS } from "./sort-values.js";

// The stages between selection and page (SPEC.md §9 rule 1): filters, then aggregate or sort.
// Each stage is a loop over a range of candidates (see filters.ts, sort-order.ts,
// aggregate-rows.ts); these functions run it in chunks (inChunks) and yield between two chunks,
// so a driver can pause a long stage there (SPEC.md §9 rule 6).

/** The filtered selection: matching item indices (null: every item) and honest counts. */
export interface FilteredItems {
  indices: number[] | null;
  applied: FilterApplied[] | undefined;
  /** Filter paths that resolved on no item (an anyOf only when none of its paths did). */
  unresolved: UnresolvedPath[];
}

/**
 * Runs the filters on every item, chunk by chunk; notes the paths that resolve on none. With a
 * column store the filters read path columns (createFilterScan).
 */
export function* filterItems(
  items: readonly unknown[],
  filters: readonly CompiledFilter[] | null,
  columns: ColumnStore | null = null,
): Work<FilteredItems> {
  if (filters === null) return { indices: null, applied: undefined, unresolved: [] };
  const scan = createFilterScan(items, filters, columns);
  yield* inChunks(items.length, (start, end) => scan.scan(start, end));
  const outcome = scan.finish();
  const unresolved: UnresolvedPath[] = [];
  outcome.applied.forEach((applied, position) => {
    const filter = filters[position] as CompiledFilter;
    const exists =
      filter.anyOf === null
        ? filter.op === "exists"
        : filter.anyOf.some((leaf) => leaf.op === "exists");
    if (applied.resolvedOn !== 0 || items.length === 0 || exists) return;
    const paths = filter.anyOf === null ? [filter.path] : filter.anyOf.map((leaf) => leaf.path);
    for (const path of paths) unresolved.push({ path, role: "filter" });
  });
  return { indices: outcome.indices, applied: outcome.applied, unresolved };
}

/** True when a path that resolved on no candidate resolves on no item of the selection either. */
function isUnresolved(items: readonly unknown[], resolved: number, path: CompiledPath): boolean {
  return resolved === 0 && items.length > 0 && !resolvesOnAny(items, null, path);
}

/**
 * A sorted view of the candidates: a prefix of their order (positions into the candidates), the
 * extracted key columns while the order is not complete (so the prefix can grow without reading
 * the items again), and the sort paths that resolved on no item of the selection.
 */
export interface SortedView {
  readonly order: Int32Array;
  /** True when `order` holds every candidate. */
  readonly complete: boolean;
  /** Null once the order is complete. */
  readonly columns: SortColumns | null;
  readonly unresolved: UnresolvedPath[];
}

/** Bytes a sorted view holds: its order, and its key columns while it keeps them. */
export function sortedViewBytes(view: SortedView): number {
  let bytes = typedBytes(view.order);
  const columns = view.columns;
  if (columns === null) return bytes;
  for (const column of columns.columns) {
    bytes += typedBytes(column.classes) + typedBytes(column.numbers);
    bytes += arrayBytes(column.texts.length);
    for (let position = 0; position < columns.count; position += 1) {
      if (column.classes[position] === STRUCTURED_CLASS) {
        bytes += stringBytes(column.texts[position] as string);
      }
    }
  }
  return bytes;
}

/**
 * The sorted view of the candidates: at least the first `limit` candidate positions in order
 * (orderPositions), and the sort paths that resolve on no item of the selection. Given the view
 * an earlier page of the same request left (`previous`), it reads no item again: it answers from
 * the order it holds when that is long enough, else orders the kept columns to at least twice
 * that length (so paging a whole view costs a few orderings, not one a page).
 */
export function* sortCandidates(
  items: readonly unknown[],
  indices: readonly number[] | null,
  keys: readonly CompiledSortKey[],
  readers: readonly SortKeyReader[],
  limit: number,
  previous?: SortedView,
): Work<SortedView> {
  const count = indices === null ? items.length : indices.length;
  if (previous !== undefined) {
    if (previous.complete || previous.order.length >= Math.min(limit, count)) return previous;
  }
  let columns: SortColumns;
  let unresolved: UnresolvedPath[];
  let target = limit;
  if (previous?.columns != null) {
    columns = previous.columns;
    unresolved = previous.unresolved;
    target = Math.max(limit, 2 * previous.order.length);
  } else {
    columns = createSortColumns(readers, count);
    yield* inChunks(count, (start, end) =>
      extractSortKeys(columns, readers, items, indices, start, end),
    );
    unresolved = [];
    keys.forEach((key, at) => {
      if (isUnresolved(items, columns.resolved[at] as number, key.path)) {
        unresolved.push({ path: key.path, role: "sort" });
      }
    });
  }
  const order = yield* orderPositions(columns, target);
  const complete = order.length >= count;
  return { order, complete, columns: complete ? null : columns, unresolved };
}

/** The sort keys as readers of items. */
export function itemSortReaders(keys: readonly CompiledSortKey[]): SortKeyReader[] {
  return keys.map((key) => ({
    read: key.path.read,
    ownKey: key.path.ownKey,
    steps: key.path.steps,
    measure: key.measure,
    descending: key.descending,
  }));
}

/**
 * The sort keys as readers of aggregate rows: a path equal to a row label reads that label
 * (`"sum(/price)"`, `"/category"`); any other path is read on the row like a filter path.
 */
export function rowSortReaders(
  keys: readonly CompiledSortKey[],
  labels: readonly string[],
): SortKeyReader[] {
  return keys.map((key) => {
    const label = key.path.label;
    const read = labels.includes(label)
      ? (row: unknown) => (row as Record<string, unknown>)[label]
      : key.path.read;
    return { read, measure: key.measure, descending: key.descending };
  });
}

/** The rows of an aggregate in §9 order, the items it skipped, and its unresolved paths. */
export interface AggregatedRows {
  readonly rows: Record<string, unknown>[];
  readonly skipped: number;
  readonly unresolved: UnresolvedPath[];
}

/** The rows of an aggregate over the candidates, the items skipped, and unresolved paths. */
export function* aggregateCandidates(
  items: readonly unknown[],
  indices: readonly number[] | null,
  aggregate: CompiledAggregate,
): Work<AggregatedRows> {
  const grouping = createGrouping(aggregate);
  yield* inChunks(indices === null ? items.length : indices.length, (start, end) =>
    groupItems(grouping, items, indices, start, end),
  );
  const unresolved: UnresolvedPath[] = [];
  aggregate.groupBy.forEach((path, at) => {
    if (isUnresolved(items, grouping.resolved[at] as number, path)) {
      unresolved.push({ path, role: "groupBy" });
    }
  });
  aggregate.metrics.forEach((metric, at) => {
    const resolved = grouping.resolved[aggregate.groupBy.length + at] as number;
    if (metric.path !== null && isUnresolved(items, resolved, metric.path)) {
      unresolved.push({ path: metric.path, role: "metric" });
    }
  });
  return { rows: finishRows(grouping), skipped: grouping.skipped, unresolved };
}
