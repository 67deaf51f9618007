import { describe, expect, it } from "vitest";
import { icontainsNeedle, includesNeedle } from "./icontains-needle.js";

// includesNeedle must decide exactly `text.toLowerCase().includes(needle)`: checked next to every
// BMP character for needles whose Horspool shifts differ (repeated characters, "k" and "i" in
// every place, metacharacters), and on the characters whose case mapping is special.

function test(needle: string, text: string): boolean {
  const prepared = icontainsNeedle(needle);
  if (prepared === null) throw new Error(`no needle for ${JSON.stringify(needle)}`);
  return includesNeedle(text, prepared);
}

describe("includesNeedle", () => {
  it("decides what toLowerCase().includes decides next to every BMP character", () => {
    const needles = [
      "k",
      "i",
      "ik",
      "ki",
      "kik",
      "iki",
      "aa",
      "abab",
      "xi",
      "node 77",
      "-k/",
      "[i]",
    ];
    const wrong: string[] = [];
    for (const needle of needles) {
      const prepared = icontainsNeedle(needle);
      if (prepared === null) throw new Error(needle);
      for (let unit = 0; unit <= 0xffff; unit += 1) {
        const char = String.fromCharCode(unit);
        const texts = [
          char,
          `${needle.slice(0, -1)}${char}`,
          `${char}${needle.slice(1)}`,
          `x${needle.slice(0, 1)}${char}${needle.slice(2)}y`,
          `${char}${needle}`,
        ];
        for (const text of texts) {
          if (includesNeedle(text, prepared) !== text.toLowerCase().includes(needle)) {
            wrong.push(`${JSON.stringify(needle)} in ${JSON.stringify(text)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("matches U+212A for every k, U+0130 only for a final i, and any ASCII case", () => {
    expect([
      test("kik", "\u212Ai\u212A"),
      test("xi", "X\u0130"),
      test("ix", "\u0130X"),
      test("i", "\u0130"),
      test("ki", "K\u0130"),
      test("node 77", "a NODE 77"),
      test("resource/42", "https://x/v1/Resource/42"),
      test("a.b", "axb"),
      test("s", "\u017F"),
      test("i", "\u0131"),
      test("ss", "\u00DF"),
      test("aab", "aaab"),
      test("abab", "abaabab"),
    ]).toEqual([true, true, false, true, true, true, true, false, false, false, false, true, true]);
  });

  it("is null for the empty needle and for a needle with a non-ASCII character", () => {
    expect([icontainsNeedle(""), icontainsNeedle("é"), icontainsNeedle("i\u0307")]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("finds nothing in a text shorter than the needle", () => {
    expect([test("abc", ""), test("abc", "ab"), test("abc", "ABC")]).toEqual([false, false, true]);
  });
});
