import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayHoldInexactNumbersInBytes } from "./candidate-bytes.js";
import { mayHoldInexactNumbers } from "./detect.js";

const utf8 = (text: string) => Buffer.from(text, "utf8");

/** Number literals of every form: long, exponents of 1 to 4 digits, -0 variants, broken ones. */
const numberish = fc.oneof(
  fc.double({ noNaN: true }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc
    .tuple(
      fc.constantFrom("", "-"),
      fc.stringMatching(/^[0-9.]{0,20}$/),
      fc.constantFrom("", "e", "E", "e+", "e-", "E-"),
      fc.stringMatching(/^[0-9]{0,4}$/),
      fc.constantFrom("", ".", "e", "0", "x", " ", ",", "]"),
    )
    .map((parts) => parts.join("")),
  fc.constantFrom("-0", "-0.0", "-0.", "-0e5", "-0.e5", "-0E+", "-00", "-0.5", "-0e", "-0.000e-7x"),
);

/** JSON-ish texts: the candidates' chars, numbers of every form, anchors, strings, non-ASCII. */
const texts = fc
  .array(
    fc.oneof(
      numberish,
      fc.constantFrom(...'0123456789.eE+-[]:,{} \t\n\r"ax\u00e9\u00a0\u4e2d'),
      fc.constantFrom('"a:', '":', "\u{1f600}", "\ud800", "  \n", "[", ":", ","),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("mayHoldInexactNumbersInBytes (the candidate test over UTF-8 bytes)", () => {
  it("answers what mayHoldInexactNumbers (the regex) answers for the text", () => {
    let flagged = 0;
    fc.assert(
      fc.property(texts, (text) => {
        const expected = mayHoldInexactNumbers(text);
        expect(mayHoldInexactNumbersInBytes(utf8(text))).toBe(expected);
        if (expected) flagged += 1;
      }),
      { numRuns: 30_000 },
    );
    // Both answers are frequent, so the comparison is not of falses only.
    expect(flagged).toBeGreaterThan(3_000);
    expect(flagged).toBeLessThan(27_000);
  });

  it("agrees on JSON documents with numbers of every form (fast-check json values)", () => {
    fc.assert(
      fc.property(fc.json(), numberish, (json, literal) => {
        for (const text of [
          json,
          `[${literal}]`,
          `{"k": ${literal}}`,
          `${json.slice(0, 7)}${literal}`,
        ]) {
          expect(mayHoldInexactNumbersInBytes(utf8(text))).toBe(mayHoldInexactNumbers(text));
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ["", false],
    ["1234567890123456", true],
    ["-1234567890123456", true],
    ["123456789012345", false],
    ['{"a":1e400}', true],
    ['{"a":1e40}', false],
    ['{"a": \n -0}', true],
    ["[-0.5]", false],
    ["[-0.e5]", true],
    ["[-0e]", false],
    ['{"id":"x:12345678901234567"}', true],
    ['{"id":"x12345678901234567"}', false],
    ['{"\u00e9":12345678901234567890}', true],
  ])("%j: %s", (text, expected) => {
    expect(mayHoldInexactNumbersInBytes(utf8(text))).toBe(expected);
    expect(mayHoldInexactNumbers(text)).toBe(expected);
  });

  it("reads a view in place (offset and length of a larger buffer)", () => {
    const whole = utf8("[1,1234567890123456789,2]");
    expect(mayHoldInexactNumbersInBytes(whole.subarray(0, 5))).toBe(false);
    expect(mayHoldInexactNumbersInBytes(whole.subarray(2))).toBe(true);
  });
});
