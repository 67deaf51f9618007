import { type Filter, metricLabel } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGrouping, finishRows, groupItems } from "./aggregate-rows.js";
import { compileFilterPath } from "./compiled-path.js";
import { applyFilters, compileFilters, createFilterScan } from "./filters.js";
import { createSortColumns, extractSortKeys, sortedPositions } from "./sort-order.js";

// A driver may run the scan loops over slices (start, end) of the candidates: every slicing must
// give exactly the outcome of one call over the whole range.

const value = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom("a", "B", "ab", ""),
  fc.array(fc.constantFrom("a", "b", 1), { maxLength: 3 }),
);
const items = fc
  .array(fc.record({ a: value, b: value }, { requiredKeys: [] }), { maxLength: 40 })
  .map((list) => JSON.parse(JSON.stringify(list)) as Record<string, unknown>[]);
/** Cut points of [0, length): sorted, distinct, from fractions. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });

function slicesOf(length: number, fractions: readonly number[]): [number, number][] {
  const points = [
    ...new Set([0, ...fractions.map((fraction) => Math.floor(fraction * length)), length]),
  ].sort((left, right) => left - right);
  return points.slice(1).map((end, at) => [points[at] as number, end]);
}

const filterSets: Filter[][] = [
  [{ path: "/a", value: 1 }],
  [
    { path: "/a", op: "gte", value: 0 },
    { path: "/b", op: "ne", value: "a" },
  ],
  [
    { path: "/a", op: "icontains", value: "a" },
    { path: "/b", op: "nin", value: [null, 2] },
    { path: "/a", op: "exists" },
  ],
  [
    {
      anyOf: [
        { path: "/a", value: "B" },
        { path: "/b", op: "gt", value: 1, measure: "length" },
      ],
    },
  ],
];

describe("scan loops in slices", () => {
  it("filter the same in any slicing as in one call", () => {
    fc.assert(
      fc.property(items, cuts, fc.constantFrom(...filterSets), (list, fractions, filters) => {
        const compiled = compileFilters(filters);
        const scan = createFilterScan(list, compiled);
        for (const [start, end] of slicesOf(list.length, fractions)) scan.scan(start, end);
        expect(scan.finish()).toEqual(applyFilters(list, compiled));
      }),
      { numRuns: 300 },
    );
  });

  it("extract sort keys and group the same in any slicing as in one call", () => {
    const readers = [
      { read: compileFilterPath("/a").read, measure: false, descending: true },
      { read: compileFilterPath("/b").read, measure: true, descending: false },
    ];
    const metrics = [
      { op: "count" as const },
      { op: "sum" as const, path: "/a" },
      { op: "max" as const, path: "/b" },
    ];
    const aggregate = {
      groupBy: [compileFilterPath("/b")],
      unwind: true,
      metrics: metrics.map((metric) => ({
        op: metric.op,
        path: metric.path === undefined ? null : compileFilterPath(metric.path),
        measure: false,
        label: metricLabel(metric),
      })),
    };
    fc.assert(
      fc.property(items, cuts, (list, fractions) => {
        const whole = createSortColumns(readers, list.length);
        extractSortKeys(whole, readers, list, null, 0, list.length);
        const sliced = createSortColumns(readers, list.length);
        const slices = slicesOf(list.length, fractions);
        for (const [start, end] of [...slices].reverse()) {
          extractSortKeys(sliced, readers, list, null, start, end);
        }
        expect(sortedPositions(sliced, list.length)).toEqual(sortedPositions(whole, list.length));
        const one = createGrouping(aggregate);
        groupItems(one, list, null, 0, list.length);
        const many = createGrouping(aggregate);
        for (const [start, end] of slices) groupItems(many, list, null, start, end);
        expect([finishRows(many), many.skipped]).toEqual([finishRows(one), one.skipped]);
      }),
      { numRuns: 300 },
    );
  });
});
