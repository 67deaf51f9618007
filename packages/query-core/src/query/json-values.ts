import { compareNumeric, isExactNumber } from "../exact/exact-number.js";
import { stringifyExact } from "../exact/stringify-exact.js";

/** A plain JSON object (not an array, not null, not an ExactNumber). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && !isExactNumber(value)
  );
}

/** The JSON type name of a value: null, boolean, number (an ExactNumber too), string, array or object. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (isExactNumber(value)) return "number";
  const type = typeof value;
  return type === "bigint" ? "number" : type;
}

/**
 * An object without a prototype, so any key (including `__proto__`) is plain data. Every object the
 * engine emits is built with this.
 */
export function createRecord<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * An empty object without a prototype, as createRecord's (any key, `__proto__` too, is plain
 * data: the prototype is already null when members are added), but in V8's fast mode: an
 * Object.create(null) object starts as a dictionary, and a page of those serialized measurably
 * slower than the same page of fast objects. For the small objects a page emits and serializes
 * (a projected item, a meta block); a record used as a map of many keys (groups, counts by
 * value) stays a createRecord, where the dictionary is the right shape.
 */
export function fastRecord<T = unknown>(): Record<string, T> {
  return Object.setPrototypeOf({}, null) as Record<string, T>;
}

/**
 * Deep equality of JSON values with a fast path for primitives: no serialization, stops at the
 * first difference. Object key order does not matter. Numbers compare by exact value when one
 * is an ExactNumber (SPEC.md §10).
 */
export function jsonEquals(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (isExactNumber(left) || isExactNumber(right)) {
    const numeric = (value: unknown) => typeof value === "number" || isExactNumber(value);
    return numeric(left) && numeric(right) && compareNumeric(left as never, right as never) === 0;
  }
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
    return false;
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index += 1) {
      if (!jsonEquals(left[index], right[index])) return false;
    }
    return true;
  }
  if (Array.isArray(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key)) return false;
    if (
      !jsonEquals((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key])
    ) {
      return false;
    }
  }
  return true;
}

/** The UTF-8 byte length of a string as it goes on the wire (native, no copy). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

let exactMeasured = false;

/**
 * Whether jsonBytes measured a value holding an ExactNumber since the last call with
 * `reset`: the page cutter (synchronous) resets it before cutting a page, so a page of a plain
 * document is never walked for inexactNumbers.
 */
export function measuredExactNumbers(reset = false): boolean {
  const seen = exactMeasured;
  if (reset) exactMeasured = false;
  return seen;
}

/**
 * The byte length of a value's compact JSON as it goes on the wire, ExactNumbers as their
 * literals (stringifyExact; 0 for undefined). A value
 * nested too deeply for JSON.stringify (thousands of levels) measures as Infinity, so the page
 * cutter compacts it (compaction is depth-limited) instead of the query failing.
 */
export function jsonBytes(value: unknown): number {
  let text: string | undefined;
  try {
    const exact = stringifyExact(value);
    if (exact !== undefined && exact.count > 0) exactMeasured = true;
    text = exact?.text;
  } catch (error) {
    if (error instanceof RangeError) return Number.POSITIVE_INFINITY;
    throw error;
  }
  return text === undefined ? 0 : utf8Length(text);
}
