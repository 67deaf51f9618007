import { EXACT_NUMBER_BRAND } from "@bounded-mcp/contract";
import { compareDecimals, type Decimal, decimalOf } from "./decimal.js";

const LITERAL = Symbol("literal");
const VALUE = Symbol("value");
const DECIMAL = Symbol("decimal");

/**
 * Sentinel strings the serializer swaps for literals (see stringify-exact.ts); null when no
 * exact serialization is running, so a plain JSON.stringify writes the double.
 */
let collecting: ExactNumber[] | null = null;
let sentinelPrefix = "";

/**
 * A number literal of a document that a double does not hold exactly (SPEC.md §10): too many
 * significant digits, overflow, underflow to zero, or `-0`. It keeps the literal as the upstream
 * wrote it and the double JSON.parse gives for it. Its data sits under symbol keys and its only
 * string-named member is `toJSON`, so a path step (`/literal`) never reads into it; path readers
 * treat `toJSON` as an inherited name. A plain JSON.stringify writes its double (so `1e400` is
 * `null`, as in structuredContent); `stringifyExact` writes its literal. Frozen.
 */
export class ExactNumber {
  private readonly [LITERAL]: string;
  private readonly [VALUE]: number;
  private readonly [DECIMAL]: Decimal;

  constructor(literal: string) {
    this[LITERAL] = literal;
    this[VALUE] = Number(literal);
    this[DECIMAL] = decimalOf(literal);
    Object.freeze(this);
  }

  /** The double, or the sentinel of an exact serialization (stringify-exact.ts). */
  toJSON(): number | string {
    if (collecting === null) return this[VALUE];
    collecting.push(this);
    return `${sentinelPrefix}${collecting.length - 1}\u0001`;
  }
}

// The contract recognises an ExactNumber filter value by this brand (SPEC.md §10).
Object.defineProperty(ExactNumber.prototype, EXACT_NUMBER_BRAND, { value: true });

/** Whether a value is an ExactNumber (a document number a double does not hold). */
export function isExactNumber(value: unknown): value is ExactNumber {
  return value instanceof ExactNumber;
}

/** The literal as the upstream wrote it. */
export function exactLiteral(value: ExactNumber): string {
  return value[LITERAL];
}

/** The double JSON.parse gives for the literal (what sum and avg use). */
export function exactDouble(value: ExactNumber): number {
  return value[VALUE];
}

/** A number or an ExactNumber as a double; undefined for anything else. */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  return value instanceof ExactNumber ? value[VALUE] : undefined;
}

/** Whether a value is a number for filters, measure and aggregates: a double or an ExactNumber. */
export function isNumeric(value: unknown): value is number | ExactNumber {
  return typeof value === "number" || value instanceof ExactNumber;
}

/**
 * Compares two numeric values by their exact decimal value: -1, 0 or 1. Two doubles compare as
 * doubles; a double compares as the shortest decimal that reads back as it (String(value)), which
 * is what a request's number is after JSON.parse. `-0` equals `0`.
 */
export function compareNumeric(left: number | ExactNumber, right: number | ExactNumber): number {
  if (typeof left === "number" && typeof right === "number") {
    return left < right ? -1 : left > right ? 1 : 0;
  }
  return compareDecimals(decimalOfNumeric(left), decimalOfNumeric(right));
}

function decimalOfNumeric(value: number | ExactNumber): Decimal {
  return typeof value === "number" ? decimalOf(String(value)) : value[DECIMAL];
}

/**
 * Whether a value is the ExactNumber `-0` (or `-0.0`...): the one ExactNumber equal to a double
 * (0), so groups and distinct counts key it as 0.
 */
export function isExactZero(value: unknown): boolean {
  return value instanceof ExactNumber && value[DECIMAL].digits === "";
}

/**
 * One text per exact value, for grouping and distinct counts: `0` for zero (`-0` too), else
 * `[-]0.<digits>e<exponent>`. Never equal to the canonical text of a double, since a double's
 * value differs from every ExactNumber's except zero.
 */
export function canonicalExact(value: ExactNumber): string {
  const { negative, digits, exponent } = value[DECIMAL];
  return digits === "" ? "0" : `${negative ? "-" : ""}0.${digits}e${exponent}`;
}

/**
 * Runs `serialize` with ExactNumbers written as `prefix<index>\u0001` and returns what it made with
 * the ExactNumbers met, in order. Internal to stringify-exact.ts.
 */
export function collectExact<T>(
  prefix: string,
  serialize: () => T,
): { made: T; met: ExactNumber[] } {
  const met: ExactNumber[] = [];
  const previous = collecting;
  const previousPrefix = sentinelPrefix;
  collecting = met;
  sentinelPrefix = prefix;
  try {
    return { made: serialize(), met };
  } finally {
    collecting = previous;
    sentinelPrefix = previousPrefix;
  }
}
