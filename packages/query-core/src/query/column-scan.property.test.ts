import type { Filter } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { createViewCache } from "../views/view-cache.js";
import { viewSlotOf } from "../views/view-slot.js";
import { applyFilters, compileFilters, createFilterScan } from "./filters.js";
import { columnStoreOf } from "./path-columns.js";

// Filters over path columns (column-scan.ts) must decide exactly what the generic filters decide
// (SPEC.md §9, §10): random documents written as JSON text and parsed exactly (inexact literals
// stay ExactNumbers, -0 stays -0), values of every kind on one path (missing, null, booleans,
// numbers, strings, arrays for icontains and contains, objects), items that are no objects, and
// filter values parsed the same way. Each case runs twice over one view cache: the first scan lays
// the columns out (in random slices), the second, with other filters over the same paths, reads
// the kept columns; both equal applyFilters without columns.

/** JSON literals of every kind a path may read. */
const literal = fc.oneof(
  {
    arbitrary: fc.constantFrom('"alpha"', '"Alpha"', '"beta"', '"ab"', '""', '"ALPHA!"'),
    weight: 4,
  },
  { arbitrary: fc.constantFrom("null", "true", "false"), weight: 2 },
  {
    arbitrary: fc.constantFrom("0", "-0", "1", "2", "0.5", "-3", "1e21", "1e400"),
    weight: 3,
  },
  { arbitrary: fc.constantFrom("12345678901234567890", "0.1000000000000000055511"), weight: 1 },
  { arbitrary: fc.constantFrom('["alpha","x"]', '["b",1]', "[]", '{"u":"ab"}', "{}"), weight: 2 },
);
const record = fc
  .record(
    {
      a: literal,
      b: literal,
      p: fc.oneof(
        literal,
        fc.record({ u: literal }, { requiredKeys: [] }).map((fields) => ({ object: fields })),
      ),
    },
    { requiredKeys: [] },
  )
  .map((fields) => {
    const members = Object.entries(fields).map(([key, value]) => {
      const written =
        typeof value === "string"
          ? value
          : `{${Object.entries(value.object)
              .map(([name, inner]) => `${JSON.stringify(name)}:${inner}`)
              .join(",")}}`;
      return `${JSON.stringify(key)}:${written}`;
    });
    return `{${members.join(",")}}`;
  });
const itemText = fc.oneof({ arbitrary: record, weight: 9 }, { arbitrary: literal, weight: 1 });
const items = fc
  .array(itemText, { maxLength: 40 })
  .map((texts) => parseJsonExact(`[${texts.join(",")}]`) as unknown[]);
const path = fc.constantFrom("/a", "a", "/b", "/p/u", "/p", "/p/0", "/a/0");
const OPS = [
  "eq",
  "ne",
  "in",
  "nin",
  "contains",
  "icontains",
  "lt",
  "lte",
  "gt",
  "gte",
  "exists",
] as const;
/** A filter value written as JSON and parsed exactly, as a raw request's values are. */
const value = fc
  .oneof(
    literal,
    fc.constantFrom('"a"', '"AL"', '"b"', "1", "-0", "1e400", "true"),
    fc.array(literal, { maxLength: 3 }).map((list) => `[${list.join(",")}]`),
  )
  .map((text) => parseJsonExact(text));
const filter: fc.Arbitrary<Filter> = fc
  .record(
    { path, op: fc.constantFrom(...OPS), value, length: fc.boolean() },
    { requiredKeys: ["path", "op", "value", "length"] },
  )
  .map(({ length, ...rest }) => (length ? { ...rest, measure: "length" } : rest) as Filter);
const filters = fc.array(filter, { minLength: 1, maxLength: 3 });
/** Other values and ops over the same paths, for the scan that reads the kept columns. */
function sameFiltersOtherValues(first: readonly Filter[]): fc.Arbitrary<Filter[]> {
  return fc.tuple(
    ...first.map((leaf) =>
      filter.map((other) => ({ ...other, path: (leaf as { path: string }).path }) as Filter),
    ),
  );
}
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 });

function slicesOf(length: number, fractions: readonly number[]): [number, number][] {
  const points = [
    ...new Set([0, ...fractions.map((fraction) => Math.floor(fraction * length)), length]),
  ].sort((left, right) => left - right);
  return points.slice(1).map((end, at) => [points[at] as number, end]);
}

function scanInSlices(
  list: readonly unknown[],
  chosen: readonly Filter[],
  store: ReturnType<typeof columnStoreOf>,
  fractions: readonly number[],
) {
  const scan = createFilterScan(list, compileFilters(chosen), store);
  for (const [start, end] of slicesOf(list.length, fractions)) scan.scan(start, end);
  return scan.finish();
}

describe("filters over path columns (property)", () => {
  it("decide exactly what the generic filters decide, laying columns out and reading them kept", () => {
    fc.assert(
      fc.property(
        items,
        filters.chain((first) => fc.tuple(fc.constant(first), sameFiltersOtherValues(first))),
        cuts,
        cuts,
        (list, [first, second], firstCuts, secondCuts) => {
          const cache = createViewCache();
          const store = columnStoreOf(viewSlotOf(cache, list, "view"), 0);
          const generic = applyFilters(list, compileFilters(first));
          expect(scanInSlices(list, first, store, firstCuts)).toEqual(generic);
          const kept = cache.size;
          expect(scanInSlices(list, second, store, secondCuts)).toEqual(
            applyFilters(list, compileFilters(second)),
          );
          // The second scan found every column the first laid out and laid out none.
          expect(cache.size).toBe(kept);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("decide exactly the generic filters when some columns are kept and others laid out", () => {
    fc.assert(
      fc.property(items, filters, filters, cuts, cuts, (list, first, more, firstCuts, moreCuts) => {
        const cache = createViewCache();
        const store = columnStoreOf(viewSlotOf(cache, list, "view"), 0);
        expect(scanInSlices(list, first, store, firstCuts)).toEqual(
          applyFilters(list, compileFilters(first)),
        );
        // The first filters' paths are kept now; the others' columns are laid out in this scan
        // (one or two at once, next to kept ones).
        const mixed = [...more.slice(0, 1), ...first, ...more.slice(1)].slice(0, 3);
        expect(scanInSlices(list, mixed, store, moreCuts)).toEqual(
          applyFilters(list, compileFilters(mixed)),
        );
      }),
      { numRuns: 400 },
    );
  });
});
