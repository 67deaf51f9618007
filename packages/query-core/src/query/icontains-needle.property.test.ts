import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { icontainsMatches } from "./filter-loops.js";
import { compileFilters } from "./filters.js";
import { icontainsPattern } from "./icontains.js";
import { type IcontainsNeedle, icontainsNeedle, includesNeedle } from "./icontains-needle.js";

// includesNeedle is a Horspool search over character codes standing for
// `text.toLowerCase().includes(needle)`; the icontains RegExp (icontains.ts) decides the same.
// Texts mix ASCII of both cases, RegExp metacharacters, the characters whose case mapping is
// special (U+0130, U+212A, ß, sigmas, long s, dotless i, a combining dot), other non-ASCII and
// astral characters; needles are random, or cut from the text with their case changed (so many
// of them match), with characters repeated (the shifts of repeated characters).

const SPECIAL = [
  "İ",
  "K",
  "ı",
  "ß",
  "Σ",
  "ς",
  "σ",
  "ſ",
  "Å",
  "ǅ",
  "\u0307",
  "é",
  "😀",
  "\u{10400}",
];
const METACHARACTERS = [...".*+?^$()|[]\\/-", "{", "}"];
const unit = fc.oneof(
  { arbitrary: fc.constantFrom(..."abikrsxABIKRSX 07".split("")), weight: 8 },
  { arbitrary: fc.constantFrom(...METACHARACTERS), weight: 2 },
  { arbitrary: fc.constantFrom(...SPECIAL), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 1 }), weight: 1 },
);
const text = fc.array(unit, { maxLength: 40 }).map((units) => units.join(""));
const asciiUnit = fc.oneof(
  { arbitrary: fc.constantFrom(..."abikrsxABIKRSX 07".split("")), weight: 6 },
  { arbitrary: fc.constantFrom(...METACHARACTERS), weight: 1 },
  {
    arbitrary: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
    weight: 1,
  },
);
const randomNeedle = fc
  .array(asciiUnit, { minLength: 1, maxLength: 8 })
  .map((units) => units.join(""));

/** Changes the case of some characters, and writes some "k" as U+212A and a final "i" as U+0130. */
function disguise(needle: string, flips: readonly boolean[]): string {
  let written = "";
  for (let at = 0; at < needle.length; at += 1) {
    const char = needle[at] as string;
    const flip = flips[at % Math.max(1, flips.length)] === true;
    if (!flip) written += char;
    else if (char === "k") written += "\u212A";
    else if (char === "i" && at === needle.length - 1) written += "\u0130";
    else written += char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  }
  return written;
}

/** A text holding the needle (disguised) between two random texts. */
const textWithNeedle = fc
  .tuple(text, randomNeedle, fc.array(fc.boolean(), { maxLength: 8 }), text)
  .map(([before, needle, flips, after]) => ({
    needle: needle.toLowerCase(),
    text: `${before}${disguise(needle.toLowerCase(), flips)}${after}`,
  }));

function check(haystack: string, lowered: string): void {
  const needle = icontainsNeedle(lowered);
  const expected = haystack.toLowerCase().includes(lowered);
  expect(needle).not.toBeNull();
  if (needle === null) return;
  expect(includesNeedle(haystack, needle)).toBe(expected);
  expect(icontainsPattern(lowered)?.test(haystack)).toBe(expected);
}

describe("includesNeedle (property)", () => {
  it("decides what toLowerCase().includes decides, for random ASCII needles", () => {
    fc.assert(
      fc.property(text, randomNeedle, (haystack, needle) => check(haystack, needle.toLowerCase())),
      { numRuns: 5000 },
    );
  });

  it("decides what toLowerCase().includes decides, for needles cut from the text in any case", () => {
    fc.assert(
      fc.property(textWithNeedle, ({ text: haystack, needle }) => check(haystack, needle)),
      { numRuns: 5000 },
    );
  });

  it("decides what toLowerCase().includes decides, for needles of repeated characters", () => {
    const repeated = fc
      .tuple(fc.constantFrom("a", "k", "i", "7", "."), fc.constantFrom("b", "k", "i", "/"))
      .chain(([first, second]) =>
        fc.array(fc.constantFrom(first, second), { minLength: 1, maxLength: 6 }),
      )
      .map((units) => units.join(""));
    const dense = fc
      .array(
        fc.constantFrom("a", "A", "b", "B", "k", "K", "\u212A", "i", "I", "\u0130", "7", ".", "/"),
        {
          maxLength: 30,
        },
      )
      .map((units) => units.join(""));
    fc.assert(
      fc.property(dense, repeated, (haystack, needle) => check(haystack, needle)),
      {
        numRuns: 5000,
      },
    );
  });

  it("decides values as the reference does: strings, arrays with other elements, missing", () => {
    const element = fc.oneof(
      text,
      fc.constantFrom(null, 7, true, undefined),
      fc.constant({ a: "k" }),
    );
    const value = fc.oneof(
      text,
      fc.array(element, { maxLength: 4 }),
      fc.constantFrom(undefined, null, 0, false, { name: "node 77" }),
    );
    fc.assert(
      fc.property(randomNeedle, value, (raw, actual) => {
        const lowered = raw.toLowerCase();
        const holds = (candidate: unknown) =>
          typeof candidate === "string" && candidate.toLowerCase().includes(lowered);
        const expected = Array.isArray(actual) ? actual.some(holds) : holds(actual);
        const [filter] = compileFilters([{ path: "/a", op: "icontains", value: raw }]);
        expect(filter?.test(actual)).toBe(expected);
        expect(icontainsMatches(icontainsNeedle(lowered) as IcontainsNeedle, actual)).toBe(
          expected,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("is null for the empty needle and for needles with a non-ASCII character", () => {
    fc.assert(
      fc.property(text, (value) => {
        const lowered = value.toLowerCase();
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, as a class
        const ascii = /^[\u0000-\u007f]+$/.test(lowered);
        expect(icontainsNeedle(lowered) !== null).toBe(ascii);
      }),
      { numRuns: 2000 },
    );
  });
});
