import type { Filter, FilterApplied, FilterOp } from "@bounded-mcp/contract";
import { type CompiledPath, compileFilterPath } from "./compiled-path.js";
import {
  applyAnyFilters,
  applyOwnKeyComparisons,
  type Comparison,
  comparisonOf,
  GENERAL,
} from "./filter-loops.js";
import { isJsonObject, jsonEquals } from "./json-values.js";

/** A filter compiled once per request: its path parsed and its comparison chosen. */
export interface CompiledFilter {
  readonly path: CompiledPath;
  readonly op: FilterOp;
  /** Decides one resolved value (`undefined` when the path did not resolve on the item). */
  readonly test: (actual: unknown) => boolean;
  /** How the loops decide `test` inline (GENERAL: they call `test`). */
  readonly comparison: Comparison;
  /** The filter's value (what an inline comparison compares with). */
  readonly expected: unknown;
  /** The candidates of an inline `in` (empty for every other comparison). */
  readonly candidates: ReadonlySet<unknown>;
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

function createTest(op: FilterOp, expected: unknown): (actual: unknown) => boolean {
  switch (op) {
    case "eq":
      return typeof expected === "object" && expected !== null
        ? (actual) => actual !== undefined && jsonEquals(actual, expected)
        : (actual) => actual === expected;
    case "ne":
      return (actual) => actual !== undefined && !jsonEquals(actual, expected);
    case "in": {
      const candidates = Array.isArray(expected) ? expected : [];
      const primitives = new Set(candidates.filter((value) => typeof value !== "object"));
      const structured = candidates.filter((value) => typeof value === "object");
      return (actual) => {
        if (actual === undefined) return false;
        if (typeof actual !== "object") return primitives.has(actual);
        for (const candidate of structured) if (jsonEquals(actual, candidate)) return true;
        return false;
      };
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
    case "icontains": {
      const needle = typeof expected === "string" ? expected.toLowerCase() : null;
      return (actual) =>
        needle !== null && typeof actual === "string" && actual.toLowerCase().includes(needle);
    }
    case "lt":
      return (actual) => isOrderable(actual, expected) && (actual as number) < (expected as number);
    case "lte":
      return (actual) =>
        isOrderable(actual, expected) && (actual as number) <= (expected as number);
    case "gt":
      return (actual) => isOrderable(actual, expected) && (actual as number) > (expected as number);
    case "gte":
      return (actual) =>
        isOrderable(actual, expected) && (actual as number) >= (expected as number);
    case "exists": {
      const wanted = expected !== false;
      return (actual) => (actual !== undefined) === wanted;
    }
  }
}

/**
 * Compiles the request's filters (CONTRACT-v3 §4.6): op `eq` by default; `eq`/`ne`/`in` compare
 * deeply (a primitive compares with `===`, no serialization); `contains` is substring, array
 * element or own key; `icontains` a case-insensitive substring; ordering ops need two numbers or
 * two strings; `exists` compares "resolves" with its boolean (default true). A path that does not
 * resolve on an item matches only `exists: false`.
 */
export function compileFilters(filters: readonly Filter[]): CompiledFilter[] {
  return filters.map((filter) => {
    const op = filter.op ?? "eq";
    const expected = filter.value;
    const comparison = comparisonOf(op, expected);
    return {
      path: compileFilterPath(filter.path),
      op,
      test: createTest(op, expected),
      comparison,
      expected,
      candidates: new Set(op === "in" && comparison !== GENERAL ? (expected as unknown[]) : []),
    };
  });
}

/**
 * Evaluates every filter on every item (no short-circuit), so `resolvedOn` and `matched` are honest
 * counts over the whole selection, not over the returned page; an item is kept when all match.
 * No loop allocates or calls a closure made for the request per item, except a GENERAL test.
 * One or two comparisons (eq, ne, in, lt, lte, gt, gte on primitives) at one own property each
 * (the common case) run on a loop of their own with reads and comparisons inline; any other
 * combination runs on a loop where the first two filters are unpacked into locals (a one-property
 * path read inline, a deeper one walked by the loop's own step functions, a comparison decided
 * inline, anything else through the filter's test) and further filters go through their compiled
 * reader and test.
 */
export function applyFilters(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
): FilterOutcome {
  const count = filters.length;
  const last = filters[count - 1];
  // resolvedOn and matched of filter n at 2n and 2n + 1: the loops keep them in locals and write
  // them here once, so no closure captures (and boxes) a counter the loop increments.
  const counts = new Float64Array(2 * Math.max(count, 2));
  const indices =
    (count === 1 || count === 2) &&
    filters.every((filter) => filter.comparison !== GENERAL && filter.path.ownKey !== undefined)
      ? applyOwnKeyComparisons(
          items,
          filters,
          filters[0]?.path.ownKey as string,
          last?.path.ownKey as string,
          counts,
        )
      : applyAnyFilters(items, filters, counts);
  return {
    indices,
    applied: filters.map((filter, position) => ({
      path: filter.path.label,
      op: filter.op,
      resolvedOn: counts[2 * position] as number,
      matched: counts[2 * position + 1] as number,
    })),
  };
}
