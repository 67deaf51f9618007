import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INEXACT_CANDIDATE_SOURCE, mayHoldInexactNumbers } from "./detect.js";

/** Texts made of the chars the candidates are built from, so near-misses are frequent. */
const nearMisses = fc
  .array(
    fc.oneof(
      fc.constantFrom(...'0123456789.eE+-[]:,{} \t\n\r"ax\u00e9\u00a0\u4e2d'),
      fc.constantFrom("1234567890", "-0", "e+", "e400", "0.0", ":-0", '"a:', "\u{1f600}", "\ud800"),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

describe("INEXACT_CANDIDATE_SOURCE over latin1-decoded UTF-8 bytes (the hashing thread's test)", () => {
  const candidate = new RegExp(INEXACT_CANDIDATE_SOURCE);

  it("answers what mayHoldInexactNumbers answers for the text", () => {
    let flagged = 0;
    fc.assert(
      fc.property(nearMisses, (text) => {
        const fromBytes = candidate.test(Buffer.from(text, "utf8").toString("latin1"));
        expect(fromBytes).toBe(mayHoldInexactNumbers(text));
        if (fromBytes) flagged += 1;
      }),
      { numRuns: 20_000 },
    );
    // The generator reaches both answers often, so the comparison is not of falses only.
    expect(flagged).toBeGreaterThan(1_000);
    expect(flagged).toBeLessThan(19_000);
  });

  it.each([
    ['{"\u00e9":12345678901234567890}', true],
    ['["\u4e2d",1e400]', true],
    ["[\u00a0-0]", false],
    ['["\u{1f600}", -0.0]', true],
    ['{"a":"\u00e912345678901234567"}', false],
  ])("%s: %s", (text, expected) => {
    expect(candidate.test(Buffer.from(text, "utf8").toString("latin1"))).toBe(expected);
    expect(mayHoldInexactNumbers(text)).toBe(expected);
  });
});
