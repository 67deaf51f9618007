import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { STDIO_INTERRUPT_BUDGET, tierUpSooner } from "./tier-up-sooner.js";

describe("tierUpSooner (the stdio proxy's V8 interrupt budget)", () => {
  it("sets the budget, unless node was started with its own", () => {
    const set: string[] = [];
    expect(tierUpSooner(["--max-semi-space-size=16"], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual([`--interrupt-budget=${STDIO_INTERRUPT_BUDGET}`]);
    expect(tierUpSooner(["--interrupt-budget=100000"], (flags) => set.push(flags))).toBe(false);
    expect(set).toHaveLength(1);
  });

  it("names an option this node's V8 has (setFlagsFromString ignores an unknown one)", () => {
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    expect(options).toMatch(/^\s+--interrupt-budget \(/m);
  });
});
