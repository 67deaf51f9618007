import { compareNumeric, isExactNumber } from "../exact/exact-number.js";
import { canonicalJson } from "./canonical-json.js";

// The order of values across JSON types (SPEC.md §9 rule 2), shared by sort, the row order of
// aggregate and the min/max metrics: numbers (numeric) < strings (UTF-16 code units) < booleans
// (false < true) < arrays and objects (canonical JSON); missing values and null follow all others.

/** The type class of a value in the §9 order; MISSING also covers null and "no length". */
export const NUMBER_CLASS = 0;
export const STRING_CLASS = 1;
export const BOOLEAN_CLASS = 2;
export const STRUCTURED_CLASS = 3;
export const MISSING_CLASS = 4;

/** The §9 class of a value (undefined and null are MISSING; an ExactNumber is a number). */
export function classOf(value: unknown): number {
  switch (typeof value) {
    case "number":
      return NUMBER_CLASS;
    case "string":
      return STRING_CLASS;
    case "boolean":
      return BOOLEAN_CLASS;
    case "object":
      if (value === null) return MISSING_CLASS;
      return isExactNumber(value) ? NUMBER_CLASS : STRUCTURED_CLASS;
    default:
      return MISSING_CLASS;
  }
}

/**
 * The length `measure: "length"` reads (array items, string UTF-16 code units, object keys), or
 * undefined for a value without one (numbers, booleans, null, missing).
 */
export function lengthOf(value: unknown): number | undefined {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null || isExactNumber(value)) return undefined;
  if (Array.isArray(value)) return value.length;
  return Object.keys(value).length;
}

function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Compares two present values (neither missing nor null) in ascending §9 order: -1, 0 or 1.
 * Arrays and objects compare by their canonical JSON text, so deep-equal ones are equal.
 */
export function comparePresent(left: unknown, right: unknown): number {
  const leftClass = classOf(left);
  const rightClass = classOf(right);
  if (leftClass !== rightClass) return leftClass < rightClass ? -1 : 1;
  switch (leftClass) {
    case NUMBER_CLASS:
      if (typeof left !== "number" || typeof right !== "number") {
        return compareNumeric(left as number, right as number);
      }
      return (left as number) < (right as number)
        ? -1
        : (left as number) > (right as number)
          ? 1
          : 0;
    case STRING_CLASS:
      return compareStrings(left as string, right as string);
    case BOOLEAN_CLASS:
      return left === right ? 0 : left === false ? -1 : 1;
    default:
      return compareStrings(canonicalJson(left), canonicalJson(right));
  }
}

/**
 * Compares two values in §9 order for one direction: present values ascending (or descending),
 * missing and null after every present value in both directions, equal to each other.
 */
export function compareSortValues(left: unknown, right: unknown, descending: boolean): number {
  const leftMissing = left === undefined || left === null;
  const rightMissing = right === undefined || right === null;
  if (leftMissing || rightMissing) return leftMissing === rightMissing ? 0 : leftMissing ? 1 : -1;
  const order = comparePresent(left, right);
  return descending ? -order : order;
}
