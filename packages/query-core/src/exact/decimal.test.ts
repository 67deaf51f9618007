import { describe, expect, it } from "vitest";
import { compareDecimals, decimalOf } from "./decimal.js";

const compare = (left: string, right: string) => compareDecimals(decimalOf(left), decimalOf(right));

describe("decimal comparison", () => {
  it("orders literals by exact value where doubles tie", () => {
    expect(compare("12345678901234567890", "12345678901234567889")).toBe(1);
    expect(compare("-12345678901234567890", "-12345678901234567889")).toBe(-1);
    expect(compare("0.30000000000000000001", "0.3")).toBe(1);
    expect(compare("1e400", "1e399")).toBe(1);
    expect(compare("1e-400", "0")).toBe(1);
    expect(compare("-1e-400", "0")).toBe(-1);
  });

  it("treats equal values written differently as equal", () => {
    expect(compare("1.50", "1.5")).toBe(0);
    expect(compare("-0", "0")).toBe(0);
    expect(compare("-0.0e5", "0")).toBe(0);
    expect(compare("1.2345678901234567e+19", "12345678901234567000")).toBe(0);
    expect(compare("100", "1e2")).toBe(0);
    expect(compare("0.001", "1e-3")).toBe(0);
  });
});
