import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFilters } from "./filters.js";

// icontains decides `value.toLowerCase().includes(needle.toLowerCase())` (SPEC.md §4.6, §9 rule
// 4); for most ASCII needles it runs as a case-insensitive RegExp. Both must agree on every
// string, including the characters whose case mapping is special (U+0130, U+212A, ß, final sigma).

const special = ["İ", "K", "ß", "Σ", "ς", "σ", "ſ", "Å", "ǅ", "\u0307", "-", "/", ".", "*", "\\"];
const unit = fc.oneof(
  { arbitrary: fc.constantFrom(..."abcikrsAIKRS 07".split("")), weight: 6 },
  { arbitrary: fc.constantFrom(...special), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 1 }), weight: 1 },
);
const text = fc.array(unit, { maxLength: 12 }).map((units) => units.join(""));

describe("icontains (property)", () => {
  it("decides exactly what toLowerCase().includes decides, on strings and string elements", () => {
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), (needle, values) => {
        const [filter] = compileFilters([{ path: "/a", op: "icontains", value: needle }]);
        const lowered = needle.toLowerCase();
        for (const value of values) {
          expect(filter?.test(value)).toBe(value.toLowerCase().includes(lowered));
        }
        const anyElement = values.some((value) => value.toLowerCase().includes(lowered));
        expect(filter?.test(values)).toBe(anyElement);
      }),
      { numRuns: 3000 },
    );
  });

  it("matches across case on the RegExp path and not across U+212A or U+0130", () => {
    const test = (needle: string, value: string) =>
      compileFilters([{ path: "/a", op: "icontains", value: needle }])[0]?.test(value);
    expect([
      test("RESOURCE/42", "https://x/Resource/42"),
      test("node 7.", "Node 77"),
      test("node 7.", "Node 7x"),
      test("k", "\u212A"),
      test("i", "\u0130"),
      test("s", "ſ"),
    ]).toEqual([true, false, false, true, true, false]);
  });
});
