import type { Filter, FilterApplied, FilterOp } from "@bounded-mcp/contract";
import { type CompiledPath, compileFilterPath } from "./compiled-path.js";
import { isJsonObject, jsonEquals } from "./json-values.js";

/** A filter compiled once per request: its path parsed and its comparison chosen. */
export interface CompiledFilter {
  readonly path: CompiledPath;
  readonly op: FilterOp;
  /** Decides one resolved value (`undefined` when the path did not resolve on the item). */
  readonly test: (actual: unknown) => boolean;
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
    return { path: compileFilterPath(filter.path), op, test: createTest(op, filter.value) };
  });
}

const ALWAYS = () => true;
const NOTHING = () => undefined;

/**
 * Evaluates every filter on every item (no short-circuit), so `resolvedOn` and `matched` are honest
 * counts over the whole selection, not over the returned page; an item is kept when all match.
 * The first three filters are read through their own local call sites (the common case, and about
 * twice as fast as calling through an array, where V8 sees every filter at one call site); any
 * further filters go through a loop.
 */
export function applyFilters(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
): FilterOutcome {
  const count = filters.length;
  const read0 = filters[0]?.path.read ?? NOTHING;
  const test0 = filters[0]?.test ?? ALWAYS;
  const read1 = filters[1]?.path.read ?? NOTHING;
  const test1 = filters[1]?.test ?? ALWAYS;
  const read2 = filters[2]?.path.read ?? NOTHING;
  const test2 = filters[2]?.test ?? ALWAYS;
  const rest = filters.slice(3);
  const resolvedOn = new Float64Array(count);
  const matched = new Float64Array(count);
  let resolved0 = 0;
  let resolved1 = 0;
  let resolved2 = 0;
  let matched0 = 0;
  let matched1 = 0;
  let matched2 = 0;
  const indices: number[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    let keep = true;
    const value0 = read0(item, index);
    if (value0 !== undefined) resolved0 += 1;
    if (test0(value0)) matched0 += 1;
    else keep = false;
    if (count > 1) {
      const value1 = read1(item, index);
      if (value1 !== undefined) resolved1 += 1;
      if (test1(value1)) matched1 += 1;
      else keep = false;
    }
    if (count > 2) {
      const value2 = read2(item, index);
      if (value2 !== undefined) resolved2 += 1;
      if (test2(value2)) matched2 += 1;
      else keep = false;
    }
    for (let position = 0; position < rest.length; position += 1) {
      const filter = rest[position] as CompiledFilter;
      const actual = filter.path.read(item, index);
      if (actual !== undefined) resolvedOn[position + 3] = (resolvedOn[position + 3] as number) + 1;
      if (filter.test(actual)) matched[position + 3] = (matched[position + 3] as number) + 1;
      else keep = false;
    }
    if (keep) indices.push(index);
  }
  const firstResolved = [resolved0, resolved1, resolved2];
  const firstMatched = [matched0, matched1, matched2];
  return {
    indices,
    applied: filters.map((filter, position) => ({
      path: filter.path.label,
      op: filter.op,
      resolvedOn:
        position < 3 ? (firstResolved[position] as number) : (resolvedOn[position] as number),
      matched: position < 3 ? (firstMatched[position] as number) : (matched[position] as number),
    })),
  };
}
