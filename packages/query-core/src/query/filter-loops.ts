import type { FilterOp } from "@bounded-mcp/contract";
import { compareNumeric, isExactNumber } from "../exact/exact-number.js";
import type { PathStep } from "./compiled-path.js";
import type { CompiledFilter } from "./filters.js";
import { type IcontainsNeedle, includesNeedle } from "./icontains-needle.js";

/**
 * How the filter loops decide a comparison filter inline, as a small integer they switch on: no
 * closure made per request is called per item. Such a closure is a new call target for the loop
 * on every request, and a full garbage collection between requests drops the loop's feedback about
 * it, so the optimized loop is thrown away and rebuilt on the next request (measured: `eq` + `gte`
 * on a 50 MiB array, 215k items, after a full collection: 10.8 ms through the filters' tests, 4.1
 * ms inline). The comparison and the path walk live in this module with the loops on purpose:
 * called across modules, the same loop measured 2.2x slower.
 * `GENERAL` means "call the filter's `test`" (deep `eq`, `nin`, `contains`, `icontains`, `exists`, any
 * filter under `measure`).
 */
export type Comparison = number;

/** Not decided inline: the loop calls the filter's compiled `test`. */
export const GENERAL: Comparison = 0;
const EQUAL = 1;
const EQUAL_TRUE = 2;
const EQUAL_FALSE = 3;
const NOT_EQUAL = 4;
const ONE_OF = 5;
const LESS_NUMBER = 6;
const AT_MOST_NUMBER = 7;
const MORE_NUMBER = 8;
const AT_LEAST_NUMBER = 9;
const LESS_STRING = 10;
const AT_MOST_STRING = 11;
const MORE_STRING = 12;
const AT_LEAST_STRING = 13;
const NEVER = 14;

const ORDERING: Partial<Record<FilterOp, readonly [Comparison, Comparison]>> = {
  lt: [LESS_NUMBER, LESS_STRING],
  lte: [AT_MOST_NUMBER, AT_MOST_STRING],
  gt: [MORE_NUMBER, MORE_STRING],
  gte: [AT_LEAST_NUMBER, AT_LEAST_STRING],
};

function isPrimitive(value: unknown): boolean {
  return typeof value !== "object" || value === null;
}

/**
 * The inline comparison of one filter (SPEC.md §4.6), or GENERAL: `eq` and `ne` with a
 * primitive value (including null) are `===` and "resolves and `!==`", `in` with only primitive
 * candidates is a Set lookup, and ordering ops compare with a number or a string (any other value
 * orders with nothing). Each decides exactly what the filter's compiled `test` decides.
 */
export function comparisonOf(op: FilterOp, expected: unknown): Comparison {
  switch (op) {
    case "eq":
      if (expected === true) return EQUAL_TRUE;
      if (expected === false) return EQUAL_FALSE;
      return isPrimitive(expected) ? EQUAL : GENERAL;
    case "ne":
      return isPrimitive(expected) ? NOT_EQUAL : GENERAL;
    case "in":
      return Array.isArray(expected) && expected.every(isPrimitive) ? ONE_OF : GENERAL;
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const [number, string] = ORDERING[op] as readonly [Comparison, Comparison];
      if (typeof expected === "number") return number;
      return typeof expected === "string" ? string : NEVER;
    }
    default:
      return GENERAL;
  }
}

/**
 * An ExactNumber `actual` against a number `expected` by exact value (SPEC.md §10): -1, 0 or 1;
 * NaN (no order) when either is something else. Reached only for object values, so plain
 * documents never call it.
 */
function exactOrder(actual: unknown, expected: unknown): number {
  return isExactNumber(actual) && typeof expected === "number"
    ? compareNumeric(actual, expected)
    : Number.NaN;
}

/** Whether an ExactNumber `actual` equals a number among an inline `in`'s candidates. */
function exactIn(actual: unknown, candidates: ReadonlySet<unknown>): boolean {
  if (!isExactNumber(actual)) return false;
  for (const candidate of candidates) {
    if (typeof candidate === "number" && compareNumeric(actual, candidate) === 0) return true;
  }
  return false;
}

/**
 * Decides one resolved value (`undefined` when the path did not resolve) for a comparison other
 * than GENERAL. `candidates` holds the values of `in` (an empty set for the other comparisons).
 * Small and free of closures so the loops inline it; a boolean compares with a literal, which V8
 * turns into one pointer comparison.
 */
function compareInline(
  comparison: Comparison,
  actual: unknown,
  expected: unknown,
  candidates: ReadonlySet<unknown>,
): boolean {
  switch (comparison) {
    case EQUAL:
      return (
        actual === expected || (typeof actual === "object" && exactOrder(actual, expected) === 0)
      );
    case EQUAL_TRUE:
      return actual === true;
    case EQUAL_FALSE:
      return actual === false;
    case NOT_EQUAL:
      return (
        actual !== undefined &&
        actual !== expected &&
        !(typeof actual === "object" && exactOrder(actual, expected) === 0)
      );
    case ONE_OF:
      return candidates.has(actual) || (typeof actual === "object" && exactIn(actual, candidates));
    case LESS_NUMBER:
      return typeof actual === "number"
        ? actual < (expected as number)
        : typeof actual === "object" && exactOrder(actual, expected) < 0;
    case AT_MOST_NUMBER:
      return typeof actual === "number"
        ? actual <= (expected as number)
        : typeof actual === "object" && exactOrder(actual, expected) <= 0;
    case MORE_NUMBER:
      return typeof actual === "number"
        ? actual > (expected as number)
        : typeof actual === "object" && exactOrder(actual, expected) > 0;
    case AT_LEAST_NUMBER:
      return typeof actual === "number"
        ? actual >= (expected as number)
        : typeof actual === "object" && exactOrder(actual, expected) >= 0;
    case LESS_STRING:
      return typeof actual === "string" && actual < (expected as string);
    case AT_MOST_STRING:
      return typeof actual === "string" && actual <= (expected as string);
    case MORE_STRING:
      return typeof actual === "string" && actual > (expected as string);
    case AT_LEAST_STRING:
      return typeof actual === "string" && actual >= (expected as string);
    default:
      return false;
  }
}

// One step of the walk a compiled path's `read` does: an array index on arrays, an own property on
// objects (own-ness checked only for names Object.prototype has). Written once per depth, as in
// compiled-path.ts, so each depth keeps property feedback of its own; and not imported from there:
// shared with the projection readers, the same walk measured 1.5-2x slower (a `/owner/id` filter
// on 43k items, a full GC before each run: 1.3-2.9 ms with these copies, 2.5-3.3 ms shared).
function stepFirst(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

function stepSecond(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

function stepDeeper(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

/**
 * What a compiled path's `read` returns, walked here so the general loop calls long-lived
 * functions, not a reader made per request: such a reader is a new call target each time, and its
 * feedback dies with it at the next garbage collection (measured: a two-step filter on 43k items
 * 3x slower after a full collection).
 */
function readSteps(item: unknown, steps: readonly PathStep[]): unknown {
  const length = steps.length;
  if (length === 0) return item;
  let current = stepFirst(item, steps[0] as PathStep);
  if (length === 1 || current === undefined) return current;
  current = stepSecond(current, steps[1] as PathStep);
  for (let depth = 2; depth < length && current !== undefined; depth += 1) {
    current = stepDeeper(current, steps[depth] as PathStep);
  }
  return current;
}

/**
 * One filter of the general loop, unpacked into plain fields of one shape so the loop reads them
 * without going through the path and filter objects: `key` when the path is one own property (read
 * inline), `steps` when readSteps walks it (else `read` is called), `comparison` when the test is
 * decided inline (else `test` is called).
 */
interface Slot {
  key: string | undefined;
  steps: readonly PathStep[] | undefined;
  read: (item: unknown, index: number) => unknown;
  comparison: Comparison;
  expected: unknown;
  candidates: ReadonlySet<unknown>;
  test: (actual: unknown) => boolean;
}

/**
 * One slice of a filter scan: the items `start` to `end` (exclusive) are scanned, their counts
 * (resolvedOn and matched of filter n at 2n and 2n + 1) added to `counts`, their matching indices
 * pushed onto `indices`. The loops read it once per call, not per item.
 */
export interface ScanRange {
  start: number;
  end: number;
  counts: Float64Array;
  indices: number[];
}

/** Adds a slice's counts of the first two filters (kept in locals by the loops). */
function addCounts(
  counts: Float64Array,
  resolved0: number,
  matched0: number,
  resolved1: number,
  matched1: number,
): void {
  counts[0] = (counts[0] as number) + resolved0;
  counts[1] = (counts[1] as number) + matched0;
  counts[2] = (counts[2] as number) + resolved1;
  counts[3] = (counts[3] as number) + matched1;
}

const NO_CANDIDATES: ReadonlySet<unknown> = new Set();

const NO_SLOT: Slot = {
  key: undefined,
  steps: undefined,
  read: () => undefined,
  comparison: GENERAL,
  expected: undefined,
  candidates: NO_CANDIDATES,
  test: () => true,
};

function slotOf(filter: CompiledFilter | undefined): Slot {
  if (filter === undefined) return NO_SLOT;
  return {
    key: filter.path.ownKey,
    steps: filter.path.steps,
    read: filter.path.read,
    comparison: filter.comparison,
    expected: filter.expected,
    candidates: filter.candidates,
    test: filter.test,
  };
}

/**
 * The common case on its own loop: one or two filters, each an inline comparison (eq, ne, in,
 * lt, lte, gt, gte on primitives) at one own property. Both reads and both comparisons are inline:
 * no closure is called and nothing is allocated per item, so the loop's optimized code survives
 * requests and garbage collections. With one filter, the second compares the same property again
 * and its counts are dropped.
 * It scans the items `start` to `end` (exclusive), adds its counts to `counts` and pushes the
 * matching indices onto `indices`, so a driver may call it over consecutive slices: any index is
 * a safe slice boundary, and slices called in order give exactly one whole call's outcome.
 */
export function applyOwnKeyComparisons(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
  key0: string,
  key1: string,
  range: ScanRange,
): void {
  const counts = range.counts;
  const first = filters[0] as CompiledFilter;
  const second = filters[filters.length - 1] as CompiledFilter;
  const comparison0 = first.comparison;
  const comparison1 = second.comparison;
  const expected0 = first.expected;
  const expected1 = second.expected;
  const candidates0 = first.candidates;
  const candidates1 = second.candidates;
  let resolved0 = 0;
  let resolved1 = 0;
  let matched0 = 0;
  let matched1 = 0;
  const indices = range.indices;
  const end = range.end;
  for (let index = range.start; index < end; index += 1) {
    const item = items[index];
    let value0: unknown;
    let value1: unknown;
    if (typeof item === "object" && item !== null && !Array.isArray(item)) {
      value0 = (item as Record<string, unknown>)[key0];
      value1 = (item as Record<string, unknown>)[key1];
    }
    const hit0 = compareInline(comparison0, value0, expected0, candidates0);
    const hit1 = compareInline(comparison1, value1, expected1, candidates1);
    // Counted with conditional increments, not branches around them: which items match is data.
    resolved0 += value0 !== undefined ? 1 : 0;
    resolved1 += value1 !== undefined ? 1 : 0;
    matched0 += hit0 ? 1 : 0;
    matched1 += hit1 ? 1 : 0;
    if (hit0 && hit1) indices.push(index);
  }
  addCounts(counts, resolved0, matched0, resolved1, matched1);
}

/**
 * Every other combination of plain filters: a one-property path read inline, a comparison decided
 * inline, anything else through the filter's compiled reader and test. Scans a range like
 * applyOwnKeyComparisons (any index is a safe slice boundary).
 */
export function applyAnyFilters(
  items: readonly unknown[],
  filters: readonly CompiledFilter[],
  range: ScanRange,
): void {
  const counts = range.counts;
  const count = filters.length;
  const slot0 = slotOf(filters[0]);
  const slot1 = slotOf(filters[1]);
  const key0 = slot0.key;
  const steps0 = slot0.steps;
  const read0 = slot0.read;
  const comparison0 = slot0.comparison;
  const expected0 = slot0.expected;
  const candidates0 = slot0.candidates;
  const test0 = slot0.test;
  const key1 = slot1.key;
  const steps1 = slot1.steps;
  const read1 = slot1.read;
  const comparison1 = slot1.comparison;
  const expected1 = slot1.expected;
  const candidates1 = slot1.candidates;
  const test1 = slot1.test;
  const second = count > 1;
  const rest = filters.slice(2);
  const restCount = rest.length;
  let resolved0 = 0;
  let resolved1 = 0;
  let matched0 = 0;
  let matched1 = 0;
  const indices = range.indices;
  const end = range.end;
  for (let index = range.start; index < end; index += 1) {
    const item = items[index];
    const record = typeof item === "object" && item !== null && !Array.isArray(item);
    let keep = true;
    const value0 =
      key0 !== undefined
        ? record
          ? (item as Record<string, unknown>)[key0]
          : undefined
        : steps0 !== undefined
          ? readSteps(item, steps0)
          : read0(item, index);
    if (value0 !== undefined) resolved0 += 1;
    if (
      comparison0 === GENERAL
        ? test0(value0)
        : compareInline(comparison0, value0, expected0, candidates0)
    ) {
      matched0 += 1;
    } else keep = false;
    if (second) {
      const value1 =
        key1 !== undefined
          ? record
            ? (item as Record<string, unknown>)[key1]
            : undefined
          : steps1 !== undefined
            ? readSteps(item, steps1)
            : read1(item, index);
      if (value1 !== undefined) resolved1 += 1;
      if (
        comparison1 === GENERAL
          ? test1(value1)
          : compareInline(comparison1, value1, expected1, candidates1)
      ) {
        matched1 += 1;
      } else keep = false;
    }
    for (let position = 0; position < restCount; position += 1) {
      const filter = rest[position] as CompiledFilter;
      const actual = filter.path.read(item, index);
      const at = 2 * position + 4;
      if (actual !== undefined) counts[at] = (counts[at] as number) + 1;
      if (filter.test(actual)) counts[at + 1] = (counts[at + 1] as number) + 1;
      else keep = false;
    }
    if (keep) indices.push(index);
  }
  addCounts(counts, resolved0, matched0, resolved1, matched1);
}

/**
 * readSteps for exactly two steps (`/parameters/url`), written out so the anyOf loop reads such a
 * path without a call per step: the same reads (an array index, or an own property checked only
 * for inherited names).
 */
function readTwoSteps(item: unknown, first: PathStep, second: PathStep): unknown {
  if (typeof item !== "object" || item === null) return undefined;
  let value: unknown;
  if (Array.isArray(item)) value = first.index < 0 ? undefined : item[first.index];
  else {
    value = (item as Record<string, unknown>)[first.token];
    if (first.inherited && value !== undefined && !Object.hasOwn(item, first.token))
      return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) return second.index < 0 ? undefined : value[second.index];
  const result = (value as Record<string, unknown>)[second.token];
  return second.inherited && result !== undefined && !Object.hasOwn(value, second.token)
    ? undefined
    : result;
}

/**
 * One filter of a list with an anyOf (a filter of the anyOf, or a plain filter beside it),
 * unpacked into plain fields of one shape: how its path is read (`key` inline, `first`/`second`
 * for two steps, `steps` walked here, else `read`) and how it is decided (`needle` for an ASCII
 * icontains, `comparison` inline, else `test`).
 */
export interface LeafSlot {
  key: string | undefined;
  two: boolean;
  first: PathStep;
  second: PathStep;
  steps: readonly PathStep[] | undefined;
  read: (item: unknown, index: number) => unknown;
  needle: IcontainsNeedle | null;
  comparison: Comparison;
  expected: unknown;
  candidates: ReadonlySet<unknown>;
  test: (actual: unknown) => boolean;
}

/**
 * One filter of a list with an anyOf, unpacked once per scan: its leaves (one for a plain filter)
 * and, for an anyOf, the counts of its filters (resolvedOn and matched of filter n at 2n and
 * 2n + 1; null for a plain filter).
 */
export interface FilterGroup {
  readonly leaves: readonly LeafSlot[];
  readonly inner: Float64Array | null;
}

const NO_STEP: PathStep = { token: "", index: -1, inherited: false };

/** A filter unpacked for the anyOf loops (and text-columns.ts, which reads paths with readLeaf). */
export function leafSlotOf(filter: CompiledFilter): LeafSlot {
  const steps = filter.path.steps;
  const two = filter.path.ownKey === undefined && steps?.length === 2;
  return {
    key: filter.path.ownKey,
    two,
    first: two ? (steps[0] as PathStep) : NO_STEP,
    second: two ? (steps[1] as PathStep) : NO_STEP,
    steps,
    read: filter.path.read,
    needle: filter.needle,
    comparison: filter.comparison,
    expected: filter.expected,
    candidates: filter.candidates,
    test: filter.test,
  };
}

/** The filters unpacked for applyFiltersWithAnyOf (once per scan, not per slice). */
export function filterGroupsOf(
  filters: readonly CompiledFilter[],
  innerCounts: readonly Float64Array[],
): FilterGroup[] {
  return filters.map((filter, position) =>
    filter.anyOf === null
      ? { leaves: [leafSlotOf(filter)], inner: null }
      : { leaves: filter.anyOf.map(leafSlotOf), inner: innerCounts[position] as Float64Array },
  );
}

/**
 * What the leaf's path reads on the item (undefined when it does not resolve): the read of its
 * compiled path, walked by long-lived functions of this module.
 */
export function readLeaf(leaf: LeafSlot, item: unknown, index: number): unknown {
  const key = leaf.key;
  if (key !== undefined) {
    return typeof item === "object" && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)[key]
      : undefined;
  }
  if (leaf.two) return readTwoSteps(item, leaf.first, leaf.second);
  const steps = leaf.steps;
  return steps !== undefined ? readSteps(item, steps) : leaf.read(item, index);
}

/** Whether the leaf holds on the resolved value: exactly what its compiled `test` decides. */
function holdsLeaf(leaf: LeafSlot, actual: unknown): boolean {
  const needle = leaf.needle;
  if (needle !== null) return icontainsMatches(needle, actual);
  const comparison = leaf.comparison;
  return comparison === GENERAL
    ? leaf.test(actual)
    : compareInline(comparison, actual, leaf.expected, leaf.candidates);
}

/**
 * Filters with an anyOf, on a loop of their own (kept apart so the plain loops stay as measured):
 * every filter and every filter of an anyOf is read and decided on every item, so each count is
 * honest (an anyOf does not stop at its first filter that holds: the others' `matched` counts
 * would be wrong). An anyOf's resolvedOn counts items where any of its paths resolved, its
 * matched items where any of its filters held. Paths are read and icontains and inline
 * comparisons decided by long-lived functions of this module; only a GENERAL test (deep `eq`,
 * `nin`, `contains`, non-ASCII icontains, `measure`) calls a closure made per request. Scans a
 * range like applyOwnKeyComparisons (any index is a safe slice boundary).
 */
export function applyFiltersWithAnyOf(
  items: readonly unknown[],
  groups: readonly FilterGroup[],
  range: ScanRange,
): void {
  const counts = range.counts;
  const indices = range.indices;
  const groupCount = groups.length;
  const end = range.end;
  for (let index = range.start; index < end; index += 1) {
    const item = items[index];
    let keep = true;
    for (let position = 0; position < groupCount; position += 1) {
      const group = groups[position] as FilterGroup;
      const leaves = group.leaves;
      const inner = group.inner;
      let resolved = false;
      let held = false;
      for (let at = 0; at < leaves.length; at += 1) {
        const leaf = leaves[at] as LeafSlot;
        const actual = readLeaf(leaf, item, index);
        const hit = holdsLeaf(leaf, actual);
        if (actual !== undefined) {
          resolved = true;
          if (inner !== null) inner[2 * at] = (inner[2 * at] as number) + 1;
        }
        if (hit) {
          held = true;
          if (inner !== null) inner[2 * at + 1] = (inner[2 * at + 1] as number) + 1;
        }
      }
      if (resolved) counts[2 * position] = (counts[2 * position] as number) + 1;
      if (held) counts[2 * position + 1] = (counts[2 * position + 1] as number) + 1;
      else keep = false;
    }
    if (keep) indices.push(index);
  }
}

/** Whether applyAnyOfIcontains takes the leaf: an ASCII icontains at one own key or two steps. */
export function isPlainIcontains(group: FilterGroup): boolean {
  return (
    group.leaves.length === 2 &&
    group.leaves.every((leaf) => leaf.needle !== null && (leaf.key !== undefined || leaf.two))
  );
}

/**
 * Reads an icontains leaf's path for applyAnyOfIcontains, from scalars the loop holds in locals
 * (so none is read again from a step object after each search): the own property `key` when
 * set, else the two steps (`token`, `index`, `inherited` of each), exactly as readTwoSteps reads.
 */
function readKeyOrTwo(
  item: unknown,
  key: string | undefined,
  token0: string,
  index0: number,
  inherited0: boolean,
  token1: string,
  index1: number,
  inherited1: boolean,
): unknown {
  if (typeof item !== "object" || item === null) return undefined;
  const array = Array.isArray(item);
  if (key !== undefined) return array ? undefined : (item as Record<string, unknown>)[key];
  let value: unknown;
  if (array) value = index0 < 0 ? undefined : item[index0];
  else {
    value = (item as Record<string, unknown>)[token0];
    if (inherited0 && value !== undefined && !Object.hasOwn(item, token0)) return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) return index1 < 0 ? undefined : value[index1];
  const result = (value as Record<string, unknown>)[token1];
  return inherited1 && result !== undefined && !Object.hasOwn(value, token1) ? undefined : result;
}

/**
 * The anyOf of two ASCII icontains filters, each at one own key or two steps (isPlainIcontains),
 * as the only filter: both values read and both needles searched on every item (honest counts),
 * counted in locals, every field of the two filters held in locals, nothing but long-lived
 * functions called (includesNeedle inlines here). Scans a range like applyOwnKeyComparisons (any
 * index is a safe slice boundary). Where its time goes (CPU profile of the §9 bench case, 120k
 * nodes, /name and /parameters/url, load average 4-8): about 36% waiting for each item's
 * `parameters` object, 29% the megamorphic `url` lookup (five `parameters` shapes) and the url
 * string, 8% the item, 7% the name string, about 10% the two searches: memory, not
 * instructions. With a RegExp call per string (before includesNeedle) the tests were about a
 * third of the loop. Measured and not kept: `Object.hasOwn` before the second step's read
 * (in-process, and again with includesNeedle: 10% slower), gathering 32 or 64 items' values
 * before testing them, touching the `parameters` of the item 4, 8 or 16 ahead (no faster),
 * reading and testing the url before the name, and patterns of explicit `[xX]` classes without
 * the `i` flag.
 */
export function applyAnyOfIcontains(
  items: readonly unknown[],
  group: FilterGroup,
  range: ScanRange,
): void {
  const counts = range.counts;
  const indices = range.indices;
  const inner = group.inner as Float64Array;
  const leaf0 = group.leaves[0] as LeafSlot;
  const leaf1 = group.leaves[1] as LeafSlot;
  const key0 = leaf0.key;
  const tokenA0 = leaf0.first.token;
  const indexA0 = leaf0.first.index;
  const inheritedA0 = leaf0.first.inherited;
  const tokenB0 = leaf0.second.token;
  const indexB0 = leaf0.second.index;
  const inheritedB0 = leaf0.second.inherited;
  const needle0 = leaf0.needle as IcontainsNeedle;
  const key1 = leaf1.key;
  const tokenA1 = leaf1.first.token;
  const indexA1 = leaf1.first.index;
  const inheritedA1 = leaf1.first.inherited;
  const tokenB1 = leaf1.second.token;
  const indexB1 = leaf1.second.index;
  const inheritedB1 = leaf1.second.inherited;
  const needle1 = leaf1.needle as IcontainsNeedle;
  let resolved0 = 0;
  let matched0 = 0;
  let resolved1 = 0;
  let matched1 = 0;
  let resolved = 0;
  let matched = 0;
  const end = range.end;
  for (let index = range.start; index < end; index += 1) {
    const item = items[index];
    const actual0 = readKeyOrTwo(
      item,
      key0,
      tokenA0,
      indexA0,
      inheritedA0,
      tokenB0,
      indexB0,
      inheritedB0,
    );
    const actual1 = readKeyOrTwo(
      item,
      key1,
      tokenA1,
      indexA1,
      inheritedA1,
      tokenB1,
      indexB1,
      inheritedB1,
    );
    const hit0 =
      typeof actual0 === "string"
        ? includesNeedle(actual0, needle0)
        : icontainsMatches(needle0, actual0);
    const hit1 =
      typeof actual1 === "string"
        ? includesNeedle(actual1, needle1)
        : icontainsMatches(needle1, actual1);
    resolved0 += actual0 !== undefined ? 1 : 0;
    resolved1 += actual1 !== undefined ? 1 : 0;
    resolved += actual0 !== undefined || actual1 !== undefined ? 1 : 0;
    matched0 += hit0 ? 1 : 0;
    matched1 += hit1 ? 1 : 0;
    if (hit0 || hit1) {
      matched += 1;
      indices.push(index);
    }
  }
  inner[0] = (inner[0] as number) + resolved0;
  inner[1] = (inner[1] as number) + matched0;
  inner[2] = (inner[2] as number) + resolved1;
  inner[3] = (inner[3] as number) + matched1;
  counts[0] = (counts[0] as number) + resolved;
  counts[1] = (counts[1] as number) + matched;
}

/**
 * `icontains` on one resolved value with a prepared needle (SPEC.md §9 rule 4): a string that
 * contains the needle case-insensitively, or an array with such a string element; false on
 * everything else (missing, null, numbers, objects). A long-lived function of this module, so
 * the loops that call it keep their optimized code across requests (and inline it: called across
 * modules the loops measured slower).
 */
export function icontainsMatches(needle: IcontainsNeedle, actual: unknown): boolean {
  if (typeof actual === "string") return includesNeedle(actual, needle);
  if (!Array.isArray(actual)) return false;
  for (let at = 0; at < actual.length; at += 1) {
    const element: unknown = actual[at];
    if (typeof element === "string" && includesNeedle(element, needle)) return true;
  }
  return false;
}
