import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHUNK_ITEMS, runInSlices, runToEnd, type Work } from "../schedule/work.js";
import { compileFilterPath } from "./compiled-path.js";
import {
  createSortColumns,
  extractSortKeys,
  orderPositions,
  type SortKeyReader,
} from "./sort-order.js";
import {
  compareReference as compareValues,
  type Json,
  readReference as read,
} from "./test-support/json-reference.js";

// The number gather (sort-gather.ts) and the sampled number top-k (sort-top-numbers.ts) against a
// naive reference (test-support/json-reference.ts: a pointer reader, the §9 type order) and a
// stable sort. Keys
// are extracted over random slices and ordered step by step, as runQueryAsync drives them.

/** Positions in reference order: by value, ties by position (document order). */
function reference(items: readonly Json[], path: string, desc: boolean): number[] {
  return items
    .map((item, position) => ({ value: read(item, path), position }))
    .sort((a, b) => compareValues(a.value, b.value, desc) || a.position - b.position)
    .map((entry) => entry.position);
}

function readerOf(path: string, desc: boolean): SortKeyReader {
  const compiled = compileFilterPath(path);
  return {
    read: compiled.read,
    ownKey: compiled.ownKey,
    steps: compiled.steps,
    measure: false,
    descending: desc,
  };
}

/** Runs work to its end by hand, counting its yields. */
function stepped<T>(work: Work<T>): { value: T; yields: number } {
  let yields = 0;
  let step = work.next(0);
  while (step.done !== true) {
    yields += 1;
    step = work.next(0);
  }
  return { value: step.value, yields };
}

/**
 * The first `limit` candidate positions of the order: keys extracted over slices cut at `cuts`
 * (taken in reverse, so no slice relies on an earlier one), then ordered step by step. The
 * candidates are the items, or those at `indices` (a filtered selection).
 */
function ordered(
  items: readonly Json[],
  path: string,
  desc: boolean,
  limit: number,
  cuts: number[],
  indices: number[] | null = null,
) {
  const keys = [readerOf(path, desc)];
  const count = indices === null ? items.length : indices.length;
  const columns = createSortColumns(keys, count);
  const bounds = [...new Set([0, ...cuts.map((cut) => cut % (count + 1)), count])];
  bounds.sort((a, b) => a - b);
  for (let at = bounds.length - 1; at > 0; at -= 1) {
    extractSortKeys(columns, keys, items, indices, bounds[at - 1] as number, bounds[at] as number);
  }
  const { value, yields } = stepped(orderPositions(columns, limit));
  return { top: [...value].slice(0, limit), yields };
}

// Numbers with ties, both zeros and the extremes; never NaN (JSON has none).
const number = fc.oneof(
  fc.integer({ min: -4, max: 4 }),
  fc.constantFrom(0, -0, 0.5, -0.5, 1e300, -1e300, Number.MAX_VALUE, Number.MIN_VALUE),
  fc.double({ noNaN: true }),
);
const scalar: fc.Arbitrary<Json> = fc.oneof(
  number,
  fc.constantFrom("", "a", "b", "10", "length"),
  fc.boolean(),
  fc.constant(null),
);
const inner: fc.Arbitrary<Json> = fc.oneof(
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("0", "1", "b", "length", "01"), scalar, { maxKeys: 3 }),
  scalar,
);
/** Items of every kind a path can meet: objects (the usual), arrays, scalars, null. */
const item: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom("n", "a", "length", "0"), inner) },
  { weight: 1, arbitrary: fc.array(inner, { maxLength: 3 }) },
  { weight: 1, arbitrary: scalar },
);
/** One-key and two-step paths, over arrays and objects, with index-like and odd tokens. */
const path = fc.constantFrom("/n", "/a", "/a/0", "/a/1", "/a/b", "/a/length", "/0/1", "/a/01");

describe("sort fast paths against a naive stable sort", () => {
  it("order mixed types, missing, null, ties and both zeros as the reference, in any slicing, filtered or not", () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 300, size: "max" }),
        path,
        fc.boolean(),
        fc.integer({ min: 0, max: 310 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.option(fc.array(fc.boolean(), { maxLength: 300, size: "max" })),
        (items, key, desc, limit, cuts, kept) => {
          // Without a mask every item is a candidate; with one, the items it keeps (a filter).
          const indices = kept === null ? null : items.flatMap((_, at) => (kept[at] ? [at] : []));
          const candidates = indices === null ? items : indices.map((at) => items[at] as Json);
          const expected = reference(candidates, key, desc).slice(0, limit);
          expect(ordered(items, key, desc, limit, cuts, indices).top).toEqual(expected);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("keep the top of many numbers (the sampled bound), ties in document order, a non-number in place", () => {
    // Long arrays, small limits (so the sample's bound applies): random small values (ties),
    // monotone runs in the unfavourable direction (each candidate beats the heap's worst), and a
    // few cells that are no number (a string sorts above every number descending, below it
    // ascending; missing and null last), which must not be dropped.
    const values = fc.oneof(
      fc.array(number, { minLength: 600, maxLength: 6000 }),
      fc
        .tuple(fc.integer({ min: 600, max: 6000 }), fc.integer({ min: 1, max: 60 }), fc.boolean())
        .map(([length, run, up]) =>
          Array.from({ length }, (_, at) => (up ? 1 : -1) * Math.floor(at / run)),
        ),
    );
    const odd = fc.array(
      fc.tuple(fc.nat(), fc.constantFrom<Json | undefined>("x", null, true, undefined, [1])),
      {
        maxLength: 2,
      },
    );
    fc.assert(
      fc.property(
        values,
        odd,
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.boolean(),
        (numbers, replaced, limit, desc, cuts, twoSteps) => {
          const cells: (Json | undefined)[] = [...numbers];
          for (const [at, value] of replaced) cells[at % cells.length] = value;
          const items = cells.map((value): Json => {
            if (!twoSteps) return value === undefined ? {} : { n: value };
            return value === undefined ? { a: [] } : { a: [0, value] };
          });
          const key = twoSteps ? "/a/1" : "/n";
          const expected = reference(items, key, desc).slice(0, limit);
          const { top, yields } = ordered(items, key, desc, limit, cuts);
          expect(top).toEqual(expected);
          // The order yields between chunks of candidates (SPEC.md §9 rule 6).
          if (limit > 0)
            expect(yields).toBeGreaterThanOrEqual(Math.ceil(items.length / CHUNK_ITEMS) - 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("pause between chunks under runInSlices and answer as run to the end", async () => {
    const items = Array.from({ length: 5 * CHUNK_ITEMS + 17 }, (_, at) => ({
      a: [0, Math.floor(at / 40) * 180],
    }));
    const keys = [readerOf("/a/1", true)];
    const columns = createSortColumns(keys, items.length);
    extractSortKeys(columns, keys, items, null, 0, items.length);
    const whole = [...runToEnd(orderPositions(columns, 20))];
    let clock = 0;
    let pauses = 0;
    const sliced = await runInSlices(orderPositions(columns, 20), {
      now: () => (clock += 1),
      sliceMs: 1,
      pause: async () => {
        pauses += 1;
      },
    });
    expect([...sliced]).toEqual(whole);
    expect(whole).toEqual(reference(items, "/a/1", true).slice(0, 20));
    expect(pauses).toBeGreaterThanOrEqual(5);
  });
});
