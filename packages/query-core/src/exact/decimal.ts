/**
 * A finite decimal number as sign, significant digits and exponent: the value is
 * `0.<digits> × 10^exponent`, digits without leading or trailing zeros ("" for zero). Two literals
 * denote the same value exactly when their Decimals are equal (`1.50` and `1.5`; `-0` and `0`).
 */
export interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

/**
 * The Decimal of a JSON number literal or of String(double) (`1.2e+21`, `5e-7`). Limits: the
 * exponent is read as a double, so an exponent beyond 2^53 digits is approximate (no JSON text
 * that large exists).
 */
export function decimalOf(literal: string): Decimal {
  let start = 0;
  const negative = literal.charCodeAt(0) === 45; // "-"
  if (negative) start = 1;
  let end = literal.length;
  let exponent = 0;
  for (let index = start; index < literal.length; index += 1) {
    const code = literal.charCodeAt(index);
    if (code === 101 || code === 69) {
      end = index;
      exponent = Number(literal.slice(index + 1));
      break;
    }
  }
  const mantissa = literal.slice(start, end);
  const dot = mantissa.indexOf(".");
  const whole = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = dot < 0 ? mantissa.length : dot;
  let first = 0;
  while (first < whole.length && whole.charCodeAt(first) === 48) first += 1;
  if (first === whole.length) return { negative: false, digits: "", exponent: 0 };
  let last = whole.length;
  while (whole.charCodeAt(last - 1) === 48) last -= 1;
  return { negative, digits: whole.slice(first, last), exponent: point - first + exponent };
}

/** Compares two Decimals by value: -1, 0 or 1. */
export function compareDecimals(left: Decimal, right: Decimal): number {
  const leftSign = left.digits === "" ? 0 : left.negative ? -1 : 1;
  const rightSign = right.digits === "" ? 0 : right.negative ? -1 : 1;
  if (leftSign !== rightSign) return leftSign < rightSign ? -1 : 1;
  if (leftSign === 0) return 0;
  let order = 0;
  if (left.exponent !== right.exponent) order = left.exponent < right.exponent ? -1 : 1;
  else if (left.digits !== right.digits) order = left.digits < right.digits ? -1 : 1;
  return leftSign < 0 ? -order : order;
}
