import { isAscii } from "./icontains-needle.js";

const SPECIAL = /[.*+?^${}()|[\]\\/-]/g;

/**
 * A case-insensitive RegExp that decides exactly `text.toLowerCase().includes(needle)` for a
 * lower-case ASCII needle, or null for an empty or non-ASCII needle (which keep the general
 * `toLowerCase().includes`). The filter loops decide each string with includesNeedle
 * (icontains-needle.ts: the same answers without a RegExp call per string); this RegExp, made
 * global (`flags` "gi"), searches a text column (text-columns.ts), one long text where a RegExp
 * wins.
 *
 * Why it is exact: a non-unicode `i` RegExp matches an ASCII letter in either case and never
 * matches a non-ASCII character against an ASCII one. The only non-ASCII characters whose lower
 * case holds ASCII are U+212A (Kelvin sign, lowers to "k") and U+0130 (lowers to "i" + U+0307);
 * `icontains.test.ts` checks this over every code point of the running engine. So each "k" of the
 * needle also accepts U+212A, and a final "i" also accepts U+0130 (an "i" inside the needle
 * cannot: the U+0307 that follows it in the lower case is not the needle's next character).
 */
export function icontainsPattern(needle: string, flags: "i" | "gi" = "i"): RegExp | null {
  if (needle.length === 0 || !isAscii(needle)) return null;
  const last = needle.length - 1;
  let source = "";
  for (let at = 0; at <= last; at += 1) {
    const char = needle[at] as string;
    if (char === "k") source += "[k\\u212A]";
    else if (char === "i" && at === last) source += "(?:i|\\u0130)";
    else source += char.replace(SPECIAL, "\\$&");
  }
  return new RegExp(source, flags);
}
