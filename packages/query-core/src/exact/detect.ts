import { compareDecimals, decimalOf } from "./decimal.js";

/**
 * What an inexact literal needs somewhere in a JSON text: 16 or more digits (or digits and a
 * point) in a row, an exponent of 3 or more digits, or a `-0` (`-0`, `-0.0`, `-0e5`) where a value
 * starts (after `[`, `:`, `,` or at the start; so `"item-0"` is no candidate). A double
 * holds every decimal of at most 15 significant digits in its normal range exactly, and leaving
 * that range takes a 3-digit exponent or hundreds of digits, so a text without a match has no
 * inexact literal. Matches inside strings are possible (a long digit id): they only cost the
 * exact scan, which then finds nothing.
 */
const CANDIDATE =
  /[\d.]{16}|[eE][+-]?\d{3}|(?:^|[[:,])[ \t\n\r]*-0(?:\.0*)?(?:[eE][+-]?\d+)?(?![\d.eE])/;

/** Whether a JSON text may hold an inexact number literal (one regex test, no allocation). */
export function mayHoldInexactNumbers(text: string): boolean {
  return CANDIDATE.test(text);
}

/**
 * Whether a JSON number literal is inexact (SPEC.md §10): `String(JSON.parse(literal))` denotes
 * a different decimal value, it overflows (`1e400`), underflows to zero (`1e-400`) or is `-0`.
 * `0.1`, `1.50`, `1e5` and `100` are exact. The literal must be valid JSON number syntax.
 */
export function isInexactLiteral(literal: string): boolean {
  const value = Number(literal);
  if (!Number.isFinite(value)) return true;
  if (value === 0) {
    // -0, or a nonzero literal that underflowed to zero.
    return Object.is(value, -0) || decimalOf(literal).digits !== "";
  }
  // Fast exits: a literal of at most 15 digits and no 3-digit exponent is exact.
  if (literal.length <= 15 && !/[eE][+-]?\d{3}/.test(literal)) return false;
  return compareDecimals(decimalOf(literal), decimalOf(String(value))) !== 0;
}
