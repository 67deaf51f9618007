import { describe, expect, it } from "vitest";
import { computeRestartDelay } from "./restart-backoff.js";

describe("computeRestartDelay", () => {
  it("doubles from the initial delay and stops at the maximum", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) =>
      computeRestartDelay(attempt, {}, () => 0),
    );
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it("takes away up to the jitter ratio of the delay at random", () => {
    const options = { initialDelayMs: 1000, jitterRatio: 0.5 };
    expect(computeRestartDelay(1, options, () => 0.5)).toBe(750);
    expect(computeRestartDelay(1, options, () => 0.99)).toBe(505);
  });

  it("follows a custom multiplier and cap", () => {
    const options = { initialDelayMs: 10, multiplier: 3, maxDelayMs: 100 };
    const delays = [1, 2, 3, 4].map((attempt) => computeRestartDelay(attempt, options, () => 0));
    expect(delays).toEqual([10, 30, 90, 100]);
  });
});
