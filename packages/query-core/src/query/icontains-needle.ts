/** U+212A KELVIN SIGN: lowers to "k". */
const KELVIN = 0x212a;
/** U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE: lowers to "i" + U+0307. */
const DOTTED_I = 0x130;
const LOWER_K = 0x6b;
const LOWER_I = 0x69;

/**
 * A lower-case ASCII icontains value, prepared once per request for includesNeedle: its text,
 * its last character in each form a string may hold it in, and the Horspool shift of every
 * ASCII character (how far the window moves when that character ends it). Read-only.
 */
export interface IcontainsNeedle {
  readonly text: string;
  readonly length: number;
  /** The last character (lower case). */
  readonly last: number;
  /** Its upper case (the same code when it is not a letter). */
  readonly lastUpper: number;
  /** The non-ASCII character that lowers to it: U+212A for "k", U+0130 for "i", else -1. */
  readonly lastWide: number;
  /** Per ASCII code, the shift when that character ends the window. */
  readonly shifts: Int32Array;
  /** The shift when U+212A ends the window (that of "k"). */
  readonly kelvinShift: number;
}

function isLowerLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** True when every UTF-16 unit of the text is ASCII. */
export function isAscii(text: string): boolean {
  for (let at = 0; at < text.length; at += 1) if (text.charCodeAt(at) > 0x7f) return false;
  return true;
}

/**
 * The prepared needle of a lower-case ASCII icontains value, or null for an empty or non-ASCII
 * one (those keep the general `toLowerCase().includes`). The caller lowers the request's value
 * first (`value.toLowerCase()`), as icontains decides.
 */
export function icontainsNeedle(needle: string): IcontainsNeedle | null {
  const length = needle.length;
  if (length === 0 || !isAscii(needle)) return null;
  const shifts = new Int32Array(128).fill(length);
  for (let at = 0; at < length - 1; at += 1) {
    const code = needle.charCodeAt(at);
    shifts[code] = length - 1 - at;
    if (isLowerLetter(code)) shifts[code - 0x20] = length - 1 - at;
  }
  const last = needle.charCodeAt(length - 1);
  return {
    text: needle,
    length,
    last,
    lastUpper: isLowerLetter(last) ? last - 0x20 : last,
    lastWide: last === LOWER_K ? KELVIN : last === LOWER_I ? DOTTED_I : -1,
    shifts,
    kelvinShift: shifts[LOWER_K] as number,
  };
}

/**
 * Whether text[start, start + last) holds the needle's first `last` characters, each in a form
 * that lowers to it: itself, its upper case, or U+212A for "k" (U+0130 lowers to two characters,
 * so it can stand only for a final "i", which includesNeedle checks).
 */
function holdsBefore(text: string, word: string, start: number, last: number): boolean {
  for (let at = last - 1; at >= 0; at -= 1) {
    const code = text.charCodeAt(start + at);
    const wanted = word.charCodeAt(at);
    if (code === wanted) continue;
    // code !== wanted and code | 0x20 === wanted: code is wanted's upper case (a letter only).
    if ((code | 0x20) === wanted && isLowerLetter(wanted)) continue;
    if (code === KELVIN && wanted === LOWER_K) continue;
    return false;
  }
  return true;
}

/**
 * Exactly `text.toLowerCase().includes(needle.text)` for a prepared lower-case ASCII needle,
 * without a lower-case copy or a RegExp call: a Horspool search over character codes, loops a
 * filter loop inlines. Why it is exact: an ASCII character lowers to one ASCII character (A-Z to
 * a-z), and the only non-ASCII characters whose lower case holds ASCII are U+212A (to "k") and
 * U+0130 (to "i" + U+0307, so it can match only as the needle's last character: the U+0307 is
 * no needle character); `icontains.test.ts` checks that over every code point of the running
 * engine. So a match of the lowered text is a window of `length` characters of the text, each of
 * which lowers to the needle's character at its place.
 */
export function includesNeedle(text: string, needle: IcontainsNeedle): boolean {
  const length = needle.length;
  const last = length - 1;
  const end = text.length - last;
  const lastCode = needle.last;
  const lastUpper = needle.lastUpper;
  const lastWide = needle.lastWide;
  const shifts = needle.shifts;
  let start = 0;
  while (start < end) {
    const code = text.charCodeAt(start + last);
    if (
      (code === lastCode || code === lastUpper || code === lastWide) &&
      holdsBefore(text, needle.text, start, last)
    ) {
      return true;
    }
    start += code < 0x80 ? (shifts[code] as number) : code === KELVIN ? needle.kelvinShift : length;
  }
  return false;
}
