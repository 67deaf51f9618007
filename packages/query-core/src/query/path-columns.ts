import { arrayBytes, OBJECT_BYTES, typedBytes } from "../views/view-bytes.js";
import type { ViewSlot } from "../views/view-slot.js";
import type { CompiledPath, PathStep } from "./compiled-path.js";

// A path column: the values one path reads on every item of a collection, laid out once so a
// filter over the path is a loop over a typed array instead of a property read on every item
// object (README "View cache", "Path columns"). Each item gets one slot (an Int32Array): the kind
// of its value for the values that need nothing more (missing, null, false, true), NUMBER_SLOT
// with the number in `numbers` (a Float64Array: -0 stays -0), a string by its code in a small
// dictionary of the column's distinct strings (the document's own strings), or OTHER_SLOT for
// everything else (arrays, objects, ExactNumbers, and strings once the dictionary is full): a
// reader of the column reads those values from the item again, so a column never stands for a
// value it cannot hold exactly.

/** The path does not resolve on the item (`read` returned undefined). */
export const MISSING_SLOT = 0;
/** The value is null. */
export const NULL_SLOT = 1;
/** The value is false. */
export const FALSE_SLOT = 2;
/** The value is true. */
export const TRUE_SLOT = 3;
/** The value is a number, held in `numbers` at the item's index. */
export const NUMBER_SLOT = 4;
/** Anything else (array, object, ExactNumber, a string past the dictionary): read the item. */
export const OTHER_SLOT = 5;
/** A string: `strings[slot - FIRST_STRING_SLOT]`. */
export const FIRST_STRING_SLOT = 6;

/**
 * Distinct strings a column codes; past this the column stops coding strings (OTHER_SLOT), so a
 * path of mostly unique strings (ids, URLs) costs no dictionary and no decision per string.
 */
export const MAX_COLUMN_STRINGS = 4_096;

/** Collections smaller than this get no columns: their plain filter loop costs well under 0.1 ms. */
export const MIN_COLUMN_ITEMS = 4_096;

/**
 * The values of one path over every item of one collection (items in a WeakRef: a cached column
 * must not keep the parsed document alive, see ViewCache). Complete once `built` equals
 * `slots.length`; only complete columns are kept in the view cache. Read-only for its users.
 */
export interface PathColumn {
  readonly items: WeakRef<readonly unknown[]>;
  /** One slot per item (the constants above). */
  readonly slots: Int32Array;
  /** The number of every NUMBER_SLOT item at its index (null when the column holds none). */
  numbers: Float64Array | null;
  /** The distinct strings, by code (at most MAX_COLUMN_STRINGS). */
  readonly strings: string[];
  /** Items the path resolves on (slot other than MISSING_SLOT). */
  resolved: number;
  /** Items at OTHER_SLOT (so a reader knows when every slot is decided by a table). */
  others: number;
  /** Items laid out so far (from index 0). */
  built: number;
  /** The dictionary while building; null once built or full. */
  dictionary: Dictionary | null;
}

/** Distinct strings by length: per length bucket the first code, then a chain through `next`. */
interface Dictionary {
  readonly first: Int32Array;
  readonly next: Int32Array;
  /** Set when a string found no room (MAX_COLUMN_STRINGS, or MAX_CHAIN strings of its length). */
  full: boolean;
}

/** Length buckets of a dictionary (lengths are taken modulo this). */
const LENGTH_BUCKETS = 256;

/**
 * Distinct strings of one length bucket a dictionary codes: past this a path of many strings of
 * one length (ids, hashes) stops coding strings, so a new string costs at most this many `===`.
 */
const MAX_CHAIN = 16;

/** An empty column for `items`, to be laid out by fillColumn from index 0. */
export function createColumn(items: readonly unknown[]): PathColumn {
  return {
    items: new WeakRef(items),
    slots: new Int32Array(items.length),
    numbers: null,
    strings: [],
    resolved: 0,
    others: 0,
    built: 0,
    dictionary: {
      first: new Int32Array(LENGTH_BUCKETS).fill(-1),
      next: new Int32Array(MAX_COLUMN_STRINGS),
      full: false,
    },
  };
}

// One step of a column's walk over a path (an array index, or an own property checked only for
// the names an object could inherit): the walk `read` does, written once per depth and kept here,
// not shared with the projection readers or the filter loops, so each depth keeps property
// feedback of its own (shared, a nested path laid out measured about 1.4x slower).
function columnStep0(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

function columnStep1(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

function columnStepDeeper(container: unknown, step: PathStep): unknown {
  if (typeof container !== "object" || container === null) return undefined;
  if (Array.isArray(container)) return step.index < 0 ? undefined : container[step.index];
  const value = (container as Record<string, unknown>)[step.token];
  return value === undefined || (step.inherited && !Object.hasOwn(container, step.token))
    ? undefined
    : value;
}

/** What `read` returns on `item` for a path with steps (hasColumnKey): the same walk. */
function walkSteps(item: unknown, steps: readonly PathStep[]): unknown {
  const length = steps.length;
  if (length === 0) return item;
  let current = columnStep0(item, steps[0] as PathStep);
  if (length === 1 || current === undefined) return current;
  current = columnStep1(current, steps[1] as PathStep);
  for (let depth = 2; depth < length && current !== undefined; depth += 1) {
    current = columnStepDeeper(current, steps[depth] as PathStep);
  }
  return current;
}

/**
 * Lays out the path's values on items [start, end) (ranges in order from 0, as a filter scan
 * runs them). Reads each value exactly as the path's `read` does (inline for an own key, else its
 * steps walked); the path must have steps (hasColumnKey).
 */
export function fillColumn(
  column: PathColumn,
  items: readonly unknown[],
  path: CompiledPath,
  start: number,
  end: number,
): void {
  fillTwoColumns(column, path, null, path, items, start, end);
}

/**
 * fillColumn for two columns at once (the usual pair of filters; `column1` null for one): each
 * item is read once for both, so laying the two out costs one pass over the items, not two.
 * Own keys are read inline, other paths by their steps (both must have steps, hasColumnKey).
 */
export function fillTwoColumns(
  column0: PathColumn,
  path0: CompiledPath,
  column1: PathColumn | null,
  path1: CompiledPath,
  items: readonly unknown[],
  start: number,
  end: number,
): void {
  const key0 = path0.ownKey;
  const key1 = path1.ownKey;
  const steps0 = path0.steps as readonly PathStep[];
  const steps1 = path1.steps as readonly PathStep[];
  const two = column1 !== null;
  const slots0 = column0.slots;
  const slots1 = two ? column1.slots : slots0;
  let resolved0 = 0;
  let others0 = 0;
  let resolved1 = 0;
  let others1 = 0;
  for (let index = start; index < end; index += 1) {
    const item = items[index];
    const record = typeof item === "object" && item !== null && !Array.isArray(item);
    const value0 =
      key0 !== undefined
        ? record
          ? (item as Record<string, unknown>)[key0]
          : undefined
        : walkSteps(item, steps0);
    const slot0 = slotOf(column0, value0, index);
    slots0[index] = slot0;
    resolved0 += slot0 !== MISSING_SLOT ? 1 : 0;
    others0 += slot0 === OTHER_SLOT ? 1 : 0;
    if (two) {
      const value1 =
        key1 !== undefined
          ? record
            ? (item as Record<string, unknown>)[key1]
            : undefined
          : walkSteps(item, steps1);
      const slot1 = slotOf(column1, value1, index);
      slots1[index] = slot1;
      resolved1 += slot1 !== MISSING_SLOT ? 1 : 0;
      others1 += slot1 === OTHER_SLOT ? 1 : 0;
    }
  }
  finishRange(column0, end, resolved0, others0);
  if (two) finishRange(column1, end, resolved1, others1);
}

/** The slot of one value read at `index` (its number stored, its string coded). */
function slotOf(column: PathColumn, value: unknown, index: number): number {
  if (typeof value === "string") {
    const dictionary = column.dictionary;
    return dictionary === null || dictionary.full
      ? OTHER_SLOT
      : codeOf(dictionary, column.strings, value);
  }
  if (value === undefined) return MISSING_SLOT;
  if (typeof value === "number") {
    let numbers = column.numbers;
    if (numbers === null) {
      numbers = new Float64Array(column.slots.length);
      column.numbers = numbers;
    }
    numbers[index] = value;
    return NUMBER_SLOT;
  }
  if (value === null) return NULL_SLOT;
  if (value === false) return FALSE_SLOT;
  return value === true ? TRUE_SLOT : OTHER_SLOT;
}

function finishRange(column: PathColumn, end: number, resolved: number, others: number): void {
  column.resolved += resolved;
  column.others += others;
  column.built = end;
  if (end === column.slots.length) column.dictionary = null;
}

/**
 * The slot of a string: its code in the column's dictionary, added when new; OTHER_SLOT once the
 * dictionary is full. Strings are found by length first (a chain per length of the strings seen
 * with it), then compared with `===`: a Map would hash every string of the document once, which
 * measured about 4x the cost of reading the values (50 MiB, 126k items).
 */
function codeOf(dictionary: Dictionary, strings: string[], value: string): number {
  const length = value.length;
  const bucket = length & (LENGTH_BUCKETS - 1);
  let code = dictionary.first[bucket] as number;
  let steps = 0;
  while (code >= 0) {
    if (strings[code] === value) return FIRST_STRING_SLOT + code;
    code = dictionary.next[code] as number;
    steps += 1;
  }
  if (strings.length >= MAX_COLUMN_STRINGS || steps >= MAX_CHAIN) {
    dictionary.full = true;
    return OTHER_SLOT;
  }
  code = strings.length;
  strings.push(value);
  dictionary.next[code] = dictionary.first[bucket] as number;
  dictionary.first[bucket] = code;
  return FIRST_STRING_SLOT + code;
}

/**
 * What a column costs in the view cache (README "View cache"): its slots (4 bytes an item), its
 * numbers when it has any (8 bytes an item), its string list by slot (the strings are the
 * document's) and an object header.
 */
export function columnBytes(column: PathColumn): number {
  return (
    OBJECT_BYTES +
    typedBytes(column.slots) +
    typedBytes(column.numbers) +
    arrayBytes(column.strings.length)
  );
}

/**
 * The most a column over `count` items can cost (slots and numbers, no strings coded): a scan
 * lays out no column the cache could not keep, so a small budget never pays for one per query.
 */
export function columnBytesAtMost(count: number): number {
  return OBJECT_BYTES * 3 + 12 * count + arrayBytes(MAX_COLUMN_STRINGS);
}

/**
 * Where the columns of one request's collection are found and kept: the request's slot in the
 * view cache, so columns count in its byte budget, go least recently used first and are dropped
 * with the document. `minItems`: smaller collections get none.
 */
export interface ColumnStore {
  readonly minItems: number;
  /** The budget of the cache behind it: a column that could not be kept is not laid out. */
  readonly maxBytes: number;
  /** The complete column of `path` over exactly these items, if one is kept. */
  get(items: readonly unknown[], path: CompiledPath): PathColumn | undefined;
  /** Keeps a complete column of `path` (replacing any other of the same key). */
  set(items: readonly unknown[], path: CompiledPath, column: PathColumn): void;
  /** Another kind of kept value (text columns, text-columns.ts) under a key of its own. */
  getKept(key: string): unknown;
  /** Keeps such a value, `bytes` its estimate (the cache's budget and order apply). */
  keep(key: string, value: unknown, bytes: number): void;
}

/**
 * Whether a column can stand for the path: its `read` must be exactly the walk over its steps
 * (every field and filter path, not an entry row's `/key` or `""`), so the key says what it reads.
 */
export function hasColumnKey(path: CompiledPath): boolean {
  return path.steps !== undefined;
}

/** What identifies the values a path reads (its steps), for keys: one text per path. */
export function stepsKey(path: CompiledPath): string {
  return JSON.stringify((path.steps ?? []).map((step) => [step.token, step.index]));
}

/** The view cache key of a path's column over a collection of `count` items. */
function columnKey(count: number, path: CompiledPath): string {
  return `column\u0000${count}\u0000${stepsKey(path)}`;
}

/**
 * The column store of a request's view slot (null without one). The key is the path's steps and
 * the collection's length; the column also checks that it was built over the same items array.
 */
export function columnStoreOf(
  views: ViewSlot | null,
  minItems: number = MIN_COLUMN_ITEMS,
): ColumnStore | null {
  if (views === null) return null;
  return {
    minItems,
    maxBytes: views.maxBytes,
    get(items, path) {
      const column = views.get(columnKey(items.length, path)) as PathColumn | undefined;
      return column !== undefined && column.items.deref() === items ? column : undefined;
    },
    set(items, path, column) {
      views.set(columnKey(items.length, path), column, columnBytes(column));
    },
    getKept: (key) => views.get(key),
    keep: (key, value, bytes) => views.set(key, value, bytes),
  };
}
