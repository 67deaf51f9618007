import type { MetricOp } from "@bounded-mcp/contract";
import {
  type ExactNumber,
  isExactNumber,
  isExactZero,
  numericValue,
} from "../exact/exact-number.js";
import { canonicalJson } from "./canonical-json.js";
import type { CompiledPath } from "./compiled-path.js";
import { compileAggregate } from "./extensions.js";
import { createRecord } from "./json-values.js";
import { comparePresent, compareSortValues, lengthOf } from "./sort-values.js";
import { readCompiled } from "./walk-path.js";

// aggregate (SPEC.md §9 rule 3): groups of the selected (filtered) items, one row each.

/** One metric, compiled: its op, the path it reads (null for count) and its row label. */
export interface CompiledMetric {
  readonly op: MetricOp;
  readonly path: CompiledPath | null;
  readonly measure: boolean;
  readonly label: string;
}

/** aggregate compiled once per request: groupBy paths (labels as given), unwind, metrics. */
export interface CompiledAggregate {
  readonly groupBy: readonly CompiledPath[];
  readonly unwind: boolean;
  readonly metrics: readonly CompiledMetric[];
}

/** What one metric keeps for one group while items are added. */
interface Accumulator {
  /** sum and avg: the sum; countDistinct: unused. */
  sum: number;
  /** avg: values added. */
  taken: number;
  /** min and max: the best value so far (a number, an ExactNumber written as its literal, or a string). */
  best: number | ExactNumber | string | undefined;
  /** countDistinct: the distinct values seen. */
  distinct: DistinctValues | null;
}

interface Group {
  readonly values: readonly unknown[];
  count: number;
  readonly accumulators: Accumulator[];
}

/** Grouping in progress; fed in slices by groupItems, turned into rows by finishRows. */
export interface Grouping {
  readonly aggregate: CompiledAggregate;
  /** Groups by primitive value (one groupBy path) or by a canonical key (the others). */
  readonly byValue: Map<unknown, Group>;
  readonly byKey: Map<string, Group>;
  /** In order of first appearance, so row order never depends on map internals. */
  readonly groups: Group[];
  /** Items that formed no group: a groupBy path missing, or unwind meeting an empty array. */
  skipped: number;
  /** Items added (without groupBy: the one row's count). */
  selected: number;
  /** Items on which each groupBy path, then each metric path, resolved (0: unresolved). */
  readonly resolved: Float64Array;
}

/** Starts a grouping. */
export function createGrouping(aggregate: CompiledAggregate): Grouping {
  return {
    aggregate,
    byValue: new Map(),
    byKey: new Map(),
    groups: [],
    skipped: 0,
    selected: 0,
    resolved: new Float64Array(aggregate.groupBy.length + aggregate.metrics.length),
  };
}

function createAccumulators(metrics: readonly CompiledMetric[]): Accumulator[] {
  return metrics.map((metric) => ({
    sum: 0,
    taken: 0,
    best: undefined,
    distinct: metric.op === "countDistinct" ? new DistinctValues() : null,
  }));
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/** Distinct JSON values by deep equality: primitives as themselves, others by canonical JSON. */
class DistinctValues {
  private readonly primitives = new Set<unknown>();
  private readonly structured = new Set<string>();

  /** Adds a value; false when an equal one was there already. */
  add(given: unknown): boolean {
    // -0 written as such is the number 0 here (SPEC.md §10: compared by value).
    const value = isExactZero(given) ? 0 : given;
    const set = isPrimitive(value) ? this.primitives : this.structured;
    const key = isPrimitive(value) ? value : canonicalJson(value);
    if (set.has(key as never)) return false;
    set.add(key as never);
    return true;
  }

  get size(): number {
    return this.primitives.size + this.structured.size;
  }
}

/** The distinct elements of an unwound value (deep equality), in document order. */
function distinctElements(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [value];
  const seen = new DistinctValues();
  return value.filter((element) => seen.add(element));
}

/** groupFor of one string value: a string is its own key, no canonical JSON or -0 check. */
function groupForString(grouping: Grouping, value: string): Group {
  let group = grouping.byValue.get(value);
  if (group === undefined) {
    group = {
      values: [value],
      count: 0,
      accumulators: createAccumulators(grouping.aggregate.metrics),
    };
    grouping.byValue.set(value, group);
    grouping.groups.push(group);
  }
  return group;
}

function groupFor(grouping: Grouping, values: readonly unknown[]): Group {
  // The ExactNumber -0 keys the group of 0; the group still echoes the value it met first.
  const zero = values.length === 1 && isExactZero(values[0]);
  const single = values.length === 1 && (zero || isPrimitive(values[0]));
  const key = zero ? 0 : single ? values[0] : canonicalJson(values);
  let group = single ? grouping.byValue.get(key) : grouping.byKey.get(key as string);
  if (group === undefined) {
    group = {
      values: [...values],
      count: 0,
      accumulators: createAccumulators(grouping.aggregate.metrics),
    };
    if (single) grouping.byValue.set(key, group);
    else grouping.byKey.set(key as string, group);
    grouping.groups.push(group);
  }
  return group;
}

/** Adds one metric value (undefined when missing) to a group's accumulator (§9 metric rules). */
function accumulate(op: MetricOp, accumulator: Accumulator, value: unknown): void {
  if (value === undefined) return;
  switch (op) {
    case "countDistinct":
      (accumulator.distinct as DistinctValues).add(value);
      return;
    case "sum":
    case "avg": {
      // An ExactNumber adds its double (SPEC.md §10: sum and avg are doubles).
      const number = numericValue(value);
      if (number === undefined) return;
      accumulator.sum += number;
      accumulator.taken += 1;
      return;
    }
    case "min":
    case "max": {
      if (typeof value !== "number" && typeof value !== "string" && !isExactNumber(value)) return;
      const best = accumulator.best;
      const order = best === undefined ? 0 : comparePresent(value, best);
      if (best === undefined || (op === "min" ? order < 0 : order > 0)) accumulator.best = value;
      return;
    }
    default:
  }
}

/** Every combination of one element per path (the cross product of unwound groupBy values). */
function combinations(lists: readonly unknown[][]): unknown[][] {
  let out: unknown[][] = [[]];
  for (const list of lists) {
    const next: unknown[][] = [];
    for (const prefix of out) for (const element of list) next.push([...prefix, element]);
    out = next;
  }
  return out;
}

/** True when an element equal to `array[at]` (deep equality) comes earlier in the array. */
function seenEarlier(array: readonly unknown[], at: number): boolean {
  const element = array[at];
  if (isPrimitive(element)) {
    for (let before = 0; before < at; before += 1) if (array[before] === element) return true;
    return false;
  }
  let text: string | undefined;
  for (let before = 0; before < at; before += 1) {
    const other = array[before];
    if (isPrimitive(other)) continue;
    text ??= canonicalJson(element);
    if (canonicalJson(other) === text) return true;
  }
  return false;
}

/** Arrays longer than this dedupe their elements with sets instead of earlier-element scans. */
const SCAN_DISTINCT_MAX = 16;

/**
 * Adds the candidates `start` to `end` (exclusive) to the grouping; candidate p is the item
 * `indices[p]` (item p when indices is null). A driver may call it over consecutive slices, in
 * order (rows and sums follow document order): every position is a safe slice boundary.
 */
export function groupItems(
  grouping: Grouping,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): void {
  const { groupBy, unwind, metrics } = grouping.aggregate;
  if (groupBy.length === 1 && metrics.every((metric) => metric.op === "count")) {
    countGroups(grouping, groupBy[0] as CompiledPath, unwind, items, indices, start, end);
    return;
  }
  const values: unknown[] = new Array(groupBy.length);
  const metricValues: unknown[] = new Array(metrics.length);
  const resolved = grouping.resolved;
  const single = groupBy.length === 1;
  const add = (group: Group): void => {
    group.count += 1;
    for (let at = 0; at < metrics.length; at += 1) {
      accumulate(
        (metrics[at] as CompiledMetric).op,
        group.accumulators[at] as Accumulator,
        metricValues[at],
      );
    }
  };
  for (let position = start; position < end; position += 1) {
    const index = indices === null ? position : (indices[position] as number);
    const item = items[index];
    grouping.selected += 1;
    let missing = false;
    for (let at = 0; at < groupBy.length; at += 1) {
      const value = readCompiled(groupBy[at] as CompiledPath, item, index);
      if (value === undefined) missing = true;
      else resolved[at] = (resolved[at] as number) + 1;
      values[at] = value;
    }
    for (let at = 0; at < metrics.length; at += 1) {
      const metric = metrics[at] as CompiledMetric;
      const raw = metric.path === null ? undefined : readCompiled(metric.path, item, index);
      if (raw !== undefined) {
        resolved[groupBy.length + at] = (resolved[groupBy.length + at] as number) + 1;
      }
      metricValues[at] = metric.measure ? lengthOf(raw) : raw;
    }
    if (missing) {
      grouping.skipped += 1;
      continue;
    }
    const first = values[0];
    if (!unwind) {
      add(groupFor(grouping, values));
    } else if (single && Array.isArray(first) && first.length <= SCAN_DISTINCT_MAX) {
      // The common unwind: one path, a short array; distinct elements without allocating.
      if (first.length === 0) grouping.skipped += 1;
      for (let at = 0; at < first.length; at += 1) {
        const element = first[at];
        if (seenEarlier(first, at)) continue;
        if (typeof element === "string") {
          add(groupForString(grouping, element));
          continue;
        }
        values[0] = element;
        add(groupFor(grouping, values));
      }
    } else {
      const lists = values.map(distinctElements);
      if (lists.some((list) => list.length === 0)) {
        grouping.skipped += 1;
        continue;
      }
      for (const combination of combinations(lists)) add(groupFor(grouping, combination));
    }
  }
}

/** The group of one unwound element (or of one value): a string by itself, else by groupFor. */
function groupOfValue(grouping: Grouping, value: unknown, single: unknown[]): Group {
  if (typeof value === "string") return groupForString(grouping, value);
  single[0] = value;
  return groupFor(grouping, single);
}

/**
 * groupItems for one groupBy path whose metrics are all `count` (the usual "how many of each"):
 * the same groups, counts, skips and resolved counts, without reading metric paths or calling
 * the accumulators, the path's own key read inline. Unwind over an array of more than
 * SCAN_DISTINCT_MAX elements dedupes them with sets (distinctElements), as groupItems does.
 */
function countGroups(
  grouping: Grouping,
  path: CompiledPath,
  unwind: boolean,
  items: readonly unknown[],
  indices: readonly number[] | null,
  start: number,
  end: number,
): void {
  const ownKey = path.ownKey;
  const single: unknown[] = [undefined];
  let resolved = 0;
  let skipped = 0;
  for (let position = start; position < end; position += 1) {
    const index = indices === null ? position : (indices[position] as number);
    const item = items[index];
    let value: unknown;
    if (ownKey !== undefined) {
      value =
        typeof item === "object" && item !== null && !Array.isArray(item)
          ? (item as Record<string, unknown>)[ownKey]
          : undefined;
    } else value = readCompiled(path, item, index);
    if (value === undefined) {
      skipped += 1;
      continue;
    }
    resolved += 1;
    if (!unwind || !Array.isArray(value)) {
      groupOfValue(grouping, value, single).count += 1;
      continue;
    }
    const length = value.length;
    if (length === 0) {
      skipped += 1;
    } else if (length <= SCAN_DISTINCT_MAX) {
      for (let at = 0; at < length; at += 1) {
        if (!seenEarlier(value, at)) groupOfValue(grouping, value[at], single).count += 1;
      }
    } else {
      for (const element of distinctElements(value)) {
        groupOfValue(grouping, element, single).count += 1;
      }
    }
  }
  grouping.selected += end - start;
  grouping.skipped += skipped;
  grouping.resolved[0] = (grouping.resolved[0] as number) + resolved;
}

function metricValue(metric: CompiledMetric, group: Group, accumulator: Accumulator): unknown {
  switch (metric.op) {
    case "count":
      return group.count;
    case "countDistinct":
      return (accumulator.distinct as DistinctValues).size;
    case "sum":
      return accumulator.sum;
    case "avg":
      return accumulator.taken === 0 ? null : accumulator.sum / accumulator.taken;
    default:
      return accumulator.best ?? null;
  }
}

/** Largest group first, then the group values in groupBy order, ascending (§9 rule 2). */
function compareGroups(left: Group, right: Group): number {
  if (left.count !== right.count) return right.count - left.count;
  for (let at = 0; at < left.values.length; at += 1) {
    const order = compareSortValues(left.values[at], right.values[at], false);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The rows of a finished grouping in §9 order: `{<groupBy path>: value, ..., <metric label>:
 * value}`, built without prototypes. Without groupBy, exactly one row over every selected item
 * (count 0 and every other metric null when nothing was selected).
 */
export function finishRows(grouping: Grouping): Record<string, unknown>[] {
  const { groupBy, metrics } = grouping.aggregate;
  if (groupBy.length === 0 && grouping.groups.length === 0) {
    const row = createRecord();
    for (const metric of metrics) row[metric.label] = metric.op === "count" ? 0 : null;
    return [row];
  }
  const groups = [...grouping.groups].sort(compareGroups);
  return groups.map((group) => {
    const row = createRecord();
    groupBy.forEach((path, at) => {
      row[path.label] = group.values[at];
    });
    metrics.forEach((metric, at) => {
      row[metric.label] = metricValue(metric, group, group.accumulators[at] as Accumulator);
    });
    return row;
  });
}

/**
 * A grouping with one group of each kind, kept for the life of the process so the shapes (V8
 * hidden classes) of groupings and groups never die: the grouping loop's optimized code checks
 * them, and a full GC that finds none alive between two requests collects them and throws that
 * code away (as KEPT_COLUMNS in sort-order.ts). Built by the same functions as a request's.
 */
export const KEPT_GROUPING: Grouping = (() => {
  const grouping = createGrouping(
    compileAggregate({ aggregate: { groupBy: "/kept" } } as Parameters<
      typeof compileAggregate
    >[0]) as CompiledAggregate,
  );
  groupForString(grouping, "kept");
  groupFor(grouping, [0]);
  return grouping;
})();
