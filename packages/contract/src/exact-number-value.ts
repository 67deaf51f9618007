/**
 * The brand of a number literal a double does not hold (SPEC.md §10), as query-core's
 * `ExactNumber` carries it on its prototype. A registry symbol (`Symbol.for`), so the contract
 * recognises such a value without depending on query-core (the layering is one-way) and two
 * copies of query-core in one process still agree.
 */
export const EXACT_NUMBER_BRAND: unique symbol = Symbol.for("@bounded-mcp/exact-number");

/**
 * A filter value read exactly from the raw request (SPEC.md §10): query-core's ExactNumber, seen
 * only through its brand. The contract validates it as a number and passes it on by reference.
 */
export interface ExactNumberValue {
  readonly [EXACT_NUMBER_BRAND]: true;
}

/** Whether a value carries the ExactNumber brand (an object; never a plain JSON value). */
export function isExactNumberValue(value: unknown): value is ExactNumberValue {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Partial<ExactNumberValue>)[EXACT_NUMBER_BRAND] === true
  );
}
