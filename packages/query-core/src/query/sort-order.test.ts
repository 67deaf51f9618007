import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSortColumns,
  extractSortKeys,
  type SortKeyReader,
  sortedPositions,
} from "./sort-order.js";

// sortedPositions against a plain stable sort: the first `limit` positions of a view by one
// number key (the top-k fast path), ties (and -0 / 0) in document order, in both directions.

function reader(descending: boolean): SortKeyReader {
  return { read: (item) => (item as { n?: unknown }).n, ownKey: "n", measure: false, descending };
}

function reference(values: readonly number[], descending: boolean): number[] {
  return values
    .map((value, position) => ({ value, position }))
    .sort((a, b) => {
      const order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      return (descending ? -order : order) || a.position - b.position;
    })
    .map((entry) => entry.position);
}

const number = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, -0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, 1e300),
);

/** The first `limit` positions sortedPositions gives equal those of the reference sort. */
function checkTop(values: number[], limit: number, descending: boolean): void {
  const keys = [reader(descending)];
  const items = values.map((n) => ({ n }));
  const columns = createSortColumns(keys, items.length);
  extractSortKeys(columns, keys, items, null, 0, items.length);
  const top = [...sortedPositions(columns, limit)].slice(0, limit);
  expect(top).toEqual(reference(values, descending).slice(0, limit));
}

describe("sortedPositions", () => {
  it("gives the first positions of a stable sort by one number key (the top-k path)", () => {
    fc.assert(
      fc.property(
        fc.array(number, { minLength: 0, maxLength: 200, size: "max" }),
        fc.integer({ min: 0, max: 30 }),
        fc.boolean(),
        checkTop,
      ),
      { numRuns: 500 },
    );
  });

  it("keeps the first positions over thousands of candidates (ties, monotone runs)", () => {
    // Long inputs: runs of equal values (ties), monotone inputs (in the unfavourable direction
    // every candidate displaces the heap's worst) and random small values.
    const pattern = fc.oneof(
      fc.array(number, { minLength: 1000, maxLength: 3000 }),
      fc
        .tuple(fc.integer({ min: 1000, max: 3000 }), fc.integer({ min: 1, max: 50 }), fc.boolean())
        .map(([length, run, up]) =>
          Array.from({ length }, (_, at) => (up ? 1 : -1) * Math.floor(at / run)),
        ),
    );
    fc.assert(fc.property(pattern, fc.integer({ min: 0, max: 250 }), fc.boolean(), checkTop), {
      numRuns: 150,
    });
  });

  it("falls back to the general order when a value is not a number (missing last)", () => {
    const keys = [reader(true)];
    const items = [
      { n: 1 },
      {},
      { n: 5 },
      { n: "x" },
      { n: 5 },
      ...Array.from({ length: 20 }, (_, n) => ({ n })),
    ];
    const columns = createSortColumns(keys, items.length);
    extractSortKeys(columns, keys, items, null, 0, items.length);
    // Descending: the string is above every number (strings follow numbers, order reversed).
    expect([...sortedPositions(columns, 4)].slice(0, 4)).toEqual([3, 24, 23, 22]);
  });
});
