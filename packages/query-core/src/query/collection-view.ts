import type { FilterApplied } from "@bounded-mcp/contract";
import { inChunks, type Work } from "../schedule/work.js";
import {
  type CompiledAggregate,
  createGrouping,
  finishRows,
  groupItems,
} from "./aggregate-rows.js";
import { type CompiledPath, resolvesOnAny } from "./compiled-path.js";
import type { CompiledSortKey } from "./extensions.js";
import { type CompiledFilter, createFilterScan } from "./filters.js";
import type { UnresolvedPath } from "./path-errors.js";
import {
  createSortColumns,
  extractSortKeys,
  orderPositions,
  type SortKeyReader,
} from "./sort-order.js";

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

/** Runs the filters on every item, chunk by chunk; notes the paths that resolve on none. */
export function* filterItems(
  items: readonly unknown[],
  filters: readonly CompiledFilter[] | null,
): Work<FilteredItems> {
  if (filters === null) return { indices: null, applied: undefined, unresolved: [] };
  const scan = createFilterScan(items, filters);
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
 * The sorted view of the candidates: at least the first `limit` candidate positions in order
 * (orderPositions), and the sort paths that resolve on no item of the selection.
 */
export function* sortCandidates(
  items: readonly unknown[],
  indices: readonly number[] | null,
  keys: readonly CompiledSortKey[],
  readers: readonly SortKeyReader[],
  limit: number,
): Work<{ positions: Int32Array; unresolved: UnresolvedPath[] }> {
  const count = indices === null ? items.length : indices.length;
  const columns = createSortColumns(readers, count);
  yield* inChunks(count, (start, end) =>
    extractSortKeys(columns, readers, items, indices, start, end),
  );
  const unresolved: UnresolvedPath[] = [];
  keys.forEach((key, at) => {
    if (isUnresolved(items, columns.resolved[at] as number, key.path)) {
      unresolved.push({ path: key.path, role: "sort" });
    }
  });
  return { positions: yield* orderPositions(columns, limit), unresolved };
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

/** The rows of an aggregate over the candidates, the items skipped, and unresolved paths. */
export function* aggregateCandidates(
  items: readonly unknown[],
  indices: readonly number[] | null,
  aggregate: CompiledAggregate,
): Work<{ rows: Record<string, unknown>[]; skipped: number; unresolved: UnresolvedPath[] }> {
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
