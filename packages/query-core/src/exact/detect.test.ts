import { describe, expect, it } from "vitest";
import { isInexactLiteral, mayHoldInexactNumbers } from "./detect.js";

describe("isInexactLiteral", () => {
  it.each([
    "0",
    "0.1",
    "1.50",
    "1e5",
    "100",
    "-12.5",
    "1E+2",
    "123456789012345",
    "123456789012345.6",
    "9007199254740993e-16",
    "1e308",
    "0.000000000000000000001",
    "1.0000000000000000",
    "5e-324",
  ])("%s is exact (String(JSON.parse) denotes the same value)", (literal) => {
    expect(isInexactLiteral(literal)).toBe(false);
  });

  it.each([
    "12345678901234567890",
    "9007199254740993",
    "0.30000000000000000001",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "-0e7",
    "1.00000000000000000001",
  ])("%s is inexact", (literal) => {
    expect(isInexactLiteral(literal)).toBe(true);
  });
});

describe("mayHoldInexactNumbers", () => {
  it("does not flag ordinary JSON", () => {
    const text = JSON.stringify({
      items: [{ id: 123456789012345, price: 0.1, big: 1e21, neg: -0.5, small: 1.5e-7, n: -10 }],
      name: "x-0",
      list: ["a-0", -0.5, -0.01],
    });
    expect(mayHoldInexactNumbers(text)).toBe(false);
  });

  it.each([
    '{"a":12345678901234567890}',
    '{"a":1e400}',
    '{"a":1e-400}',
    '{"a":-0}',
    "[-0.0]",
    '{"a":0.30000000000000000001}',
  ])("flags %s", (text) => {
    expect(mayHoldInexactNumbers(text)).toBe(true);
  });
});
