import { describe, expect, it } from "vitest";
import { icontainsPattern } from "./icontains.js";

// icontainsPattern's RegExp must decide exactly `text.toLowerCase().includes(needle)`; its proof
// rests on which characters lower to ASCII, so that is checked over every code point of the
// running engine, and the RegExp over every BMP character in and around each needle.

function hasAscii(text: string): boolean {
  for (let at = 0; at < text.length; at += 1) if (text.charCodeAt(at) < 0x80) return true;
  return false;
}

describe("icontainsPattern", () => {
  it("rests on U+0130 and U+212A being the only non-ASCII characters that lower to ASCII", () => {
    const lowersToAscii: string[] = [];
    for (let point = 0x80; point <= 0x10ffff; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const lowered = String.fromCodePoint(point).toLowerCase();
      if (hasAscii(lowered)) lowersToAscii.push(`U+${point.toString(16).toUpperCase()} ${lowered}`);
    }
    expect(lowersToAscii).toEqual(["U+130 i\u0307", "U+212A k"]);
  });

  it("is null for the empty and non-ASCII needles (they keep toLowerCase().includes)", () => {
    expect([icontainsPattern(""), icontainsPattern("é"), icontainsPattern("i\u0307")]).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("decides what toLowerCase().includes decides next to every BMP character", () => {
    const needles = ["k", "i", "ik", "ki", "kik", "xi", "node 7", "a.i", "-k/", "s", "[i]", "\\"];
    const wrong: string[] = [];
    for (const needle of needles) {
      const pattern = icontainsPattern(needle) as RegExp;
      for (let unit = 0; unit <= 0xffff; unit += 1) {
        const char = String.fromCharCode(unit);
        for (const text of [char, `${needle.slice(0, -1)}${char}`, `${char}${needle.slice(1)}`]) {
          if (pattern.test(text) !== text.toLowerCase().includes(needle)) {
            wrong.push(`${JSON.stringify(needle)} in ${JSON.stringify(text)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("matches U+212A for every k and U+0130 only for a final i", () => {
    const test = (needle: string, text: string) => icontainsPattern(needle)?.test(text);
    expect([
      test("kik", "\u212Ai\u212A"),
      test("xi", "X\u0130"),
      test("ix", "\u0130X"),
      test("i", "\u0130"),
      test("ki", "K\u0130"),
      test("node 77", "NODE 77"),
      test("a.b", "axb"),
    ]).toEqual([true, true, false, true, true, true, false]);
  });
});
