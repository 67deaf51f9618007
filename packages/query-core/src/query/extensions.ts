import {
  EXTENSION_NAMES,
  type ExtensionName,
  type Filter,
  groupByPaths,
  isAnyOfFilter,
  type LeafFilter,
  metricLabel,
  type QueryRequest,
} from "@bounded-mcp/contract";
import type { CompiledAggregate, CompiledMetric } from "./aggregate-rows.js";
import { type CompiledPath, compileFilterPath } from "./compiled-path.js";
import { compileFilters, createFilterScan, type FilterScan } from "./filters.js";

// The §9 extensions of a request compiled once: sort keys and aggregate (SPEC.md §9).

/** One sort key compiled: the path (its label is the path as sent), direction, measure. */
export interface CompiledSortKey {
  readonly path: CompiledPath;
  readonly descending: boolean;
  readonly measure: boolean;
}

/** The request's sort keys, or null without sort. Paths are read like filter paths. */
export function compileSort(request: QueryRequest): CompiledSortKey[] | null {
  if (request.sort === undefined) return null;
  return request.sort.map((key) => ({
    path: compileFilterPath(key.path),
    descending: key.order === "desc",
    measure: key.measure === "length",
  }));
}

/** The request's aggregate, or null: groupBy paths, unwind, metrics (default `[{op: "count"}]`). */
export function compileAggregate(request: QueryRequest): CompiledAggregate | null {
  const aggregate = request.aggregate;
  if (aggregate === undefined) return null;
  const metrics = (aggregate.metrics ?? [{ op: "count" as const }]).map(
    (metric): CompiledMetric => ({
      op: metric.op,
      path: metric.path === undefined ? null : compileFilterPath(metric.path),
      measure: metric.measure === "length",
      label: metricLabel(metric),
    }),
  );
  return {
    groupBy: groupByPaths(aggregate).map(compileFilterPath),
    unwind: aggregate.unwind === true,
    metrics,
  };
}

/** The aggregate with every path it reads rewritten (objectMode rebasing, prefix recovery). */
export function mapAggregatePaths(
  aggregate: CompiledAggregate,
  rewrite: (path: CompiledPath) => CompiledPath,
): CompiledAggregate {
  return {
    groupBy: aggregate.groupBy.map(rewrite),
    unwind: aggregate.unwind,
    metrics: aggregate.metrics.map((metric) => ({
      ...metric,
      path: metric.path === null ? null : rewrite(metric.path),
    })),
  };
}

/** The paths an aggregate reads on items: groupBy paths, then metric paths. */
export function aggregatePaths(aggregate: CompiledAggregate): CompiledPath[] {
  return [
    ...aggregate.groupBy,
    ...aggregate.metrics.flatMap((metric) => (metric.path === null ? [] : [metric.path])),
  ];
}

function leavesOf(filters: readonly Filter[]): LeafFilter[] {
  return filters.flatMap((filter) => (isAnyOfFilter(filter) ? filter.anyOf : [filter]));
}

/**
 * The §9 extensions a request uses, in EXTENSION_NAMES order, as `responseMeta.extensions` lists
 * them: sort, aggregate, anyOf, nin (in any filter), measure (on a filter, sort key or metric).
 */
export function extensionsUsed(request: QueryRequest): ExtensionName[] {
  const filters = request.filters ?? [];
  const leaves = leavesOf(filters);
  const used: Record<ExtensionName, boolean> = {
    sort: request.sort !== undefined,
    aggregate: request.aggregate !== undefined,
    anyOf: filters.some(isAnyOfFilter),
    nin: leaves.some((filter) => filter.op === "nin"),
    measure:
      leaves.some((filter) => filter.measure !== undefined) ||
      (request.sort ?? []).some((key) => key.measure !== undefined) ||
      (request.aggregate?.metrics ?? []).some((metric) => metric.measure !== undefined),
  };
  return EXTENSION_NAMES.filter((name) => used[name]);
}

/**
 * Filter scans kept for the life of the process (over no items: they hold nothing), one per kind
 * of scan state (plain filters, an anyOf, the anyOf of two icontains), so those shapes (V8 hidden
 * classes) never die between two requests: the filter loops' optimized code checks them, and a
 * full GC that finds none alive collects them and throws that code away (measured on the §9
 * anyOf case: the first query after each full collection ran 2-3x slower). Built by the same
 * functions as a request's scan.
 */
export const KEPT_FILTER_SCANS: readonly FilterScan[] = [
  [{ path: "/kept", op: "eq", value: 0 }],
  [
    {
      anyOf: [
        { path: "/kept", op: "eq", value: 0 },
        { path: "/kept", op: "exists" },
      ],
    },
  ],
  [
    {
      anyOf: [
        { path: "/kept", op: "icontains", value: "kept" },
        { path: "/kept/0", op: "icontains", value: "kept" },
      ],
    },
  ],
].map((filters) => createFilterScan([], compileFilters(filters as Filter[])));
