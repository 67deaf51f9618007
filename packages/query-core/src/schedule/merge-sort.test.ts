import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortInSteps } from "./merge-sort.js";
import { CHUNK_ITEMS, runToEnd } from "./work.js";

/** By value, then by position: a total order over positions into `values`. */
function byValue(values: readonly number[]) {
  return (left: number, right: number) =>
    (values[left] as number) - (values[right] as number) || left - right;
}

describe("sortInSteps", () => {
  it("answers exactly what one sort answers, for any length around the run size", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: CHUNK_ITEMS * 5 + 3 }),
        fc.integer({ min: 1, max: 50 }),
        (count, spread) => {
          const values = Array.from({ length: count }, (_, index) => (index * 7919) % spread);
          const positions = Int32Array.from({ length: count }, (_, index) => index);
          const expected = Int32Array.from(positions).sort(byValue(values));
          expect(runToEnd(sortInSteps(positions, byValue(values)))).toEqual(expected);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("yields between runs and between merge steps", () => {
    const count = CHUNK_ITEMS * 20;
    const values = Array.from({ length: count }, (_, index) => count - index);
    const work = sortInSteps(
      Int32Array.from({ length: count }, (_, index) => index),
      byValue(values),
    );
    let steps = 0;
    let step = work.next(0);
    while (step.done !== true) {
      steps += 1;
      step = work.next(0);
    }
    expect(steps).toBeGreaterThan(20);
    expect([...step.value.subarray(0, 3)]).toEqual([count - 1, count - 2, count - 3]);
  });
});
