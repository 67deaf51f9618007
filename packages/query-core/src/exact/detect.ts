import { compareDecimals, decimalOf } from "./decimal.js";

/**
 * What an inexact literal needs where a JSON value starts (at the start of the text, or after
 * `[`, `:` or `,` and whitespace): 16 or more digits or points in a row, an exponent of 3 or more
 * digits, or a `-0` (`-0`, `-0.0`, `-0e5`). A double holds every decimal of at most 15
 * significant digits in its normal range exactly, and leaving that range takes a 3-digit
 * exponent or hundreds of digits, so a text without a match has no inexact literal. Anchoring at
 * a value's start keeps hex ids and hashes inside strings (`"9f00-2e668"`) from matching; a
 * string that does match (`"a:12345678901234567"`) only costs the exact scan, which then finds
 * nothing.
 */
const CANDIDATE =
  /(?:^|[[:,])[ \t\n\r]*(?:-?[\d.]{16}|-?[\d.]+[eE][+-]?\d{3}|-0(?:\.0*)?(?:[eE][+-]?\d+)?(?![\d.eE]))/;

/**
 * The source of the candidate regex (see mayHoldInexactNumbers), for a helper thread that tests
 * bytes decoded as latin1: every char the regex matches is ASCII and every byte of a multi-byte
 * UTF-8 char is 0x80 or more, so the latin1 text of UTF-8 bytes matches exactly when their UTF-8
 * text does.
 */
export const INEXACT_CANDIDATE_SOURCE = CANDIDATE.source;

/**
 * Whether a JSON text may hold an inexact number literal (SPEC.md §10): one regex test (see
 * CANDIDATE), no allocation, no false negatives. About 0.15x a JSON.parse of a compact text
 * (bench/RESULTS.md); the adapter runs it on its hashing thread for large payloads.
 */
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
