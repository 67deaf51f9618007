import type { Filter } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createViewCache } from "../views/view-cache.js";
import { viewSlotOf } from "../views/view-slot.js";
import { compileFilterPath } from "./compiled-path.js";
import { applyFilters, compileFilters, createFilterScan, type FilterOutcome } from "./filters.js";
import { type ColumnStore, columnStoreOf } from "./path-columns.js";
import { keptTextColumn } from "./text-columns.js";

// With a column store, an anyOf of ASCII icontains filters (alone) is decided over text columns
// (text-columns.ts): on a first question they are laid out as the scan goes, on a later one the
// kept text is searched. For random items (strings with the separator and the characters whose
// case mapping is special, arrays of strings and other values, null, numbers, objects, non-object
// items), one to three filters (paths shared or not) and needles (ASCII and not, some holding the
// separator), both questions must give exactly the outcome of the filter loops without a store,
// in any slicing. A kept column's text must be its path's strings joined with the separator
// (it is laid out a piece a range: a range without strings must add none), each at its start.

const unit = fc.oneof(
  { arbitrary: fc.constantFrom(..."abikAIK 7/.\n".split("")), weight: 6 },
  { arbitrary: fc.constantFrom("İ", "K", "ß", "Σ", "é", "\u0307"), weight: 1 },
);
const text = fc.array(unit, { maxLength: 8 }).map((units) => units.join(""));
const needle = fc
  .array(fc.oneof({ arbitrary: fc.constantFrom(..."aikAK 7/\n".split("")), weight: 8 }, unit), {
    minLength: 1,
    maxLength: 3,
  })
  .map((units) => units.join(""));
const value = fc.oneof(
  { arbitrary: text, weight: 5 },
  {
    arbitrary: fc.array(fc.oneof(text, fc.constant(1), fc.constant(null)), { maxLength: 3 }),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(null, 7, true, {}), weight: 1 },
);
const record = fc.record(
  { name: value, p: fc.oneof(value, fc.record({ u: value, v: value }, { requiredKeys: [] })) },
  { requiredKeys: [] },
);
const items = fc.array(
  fc.oneof({ arbitrary: record, weight: 8 }, { arbitrary: value, weight: 1 }),
  {
    maxLength: 40,
  },
);
const path = fc.constantFrom("/name", "/p/u", "/p/0", "/p", "/p/v");
const leaf = fc.record({ path, value: needle });
const leaves = fc.array(leaf, { minLength: 1, maxLength: 3 });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

function slicesOf(length: number, fractions: readonly number[]): [number, number][] {
  const points = [
    ...new Set([0, ...fractions.map((fraction) => Math.floor(fraction * length)), length]),
  ].sort((left, right) => left - right);
  return points.slice(1).map((end, at) => [points[at] as number, end]);
}

function anyOf(list: readonly { path: string; value: string }[]): Filter[] {
  return [
    { anyOf: list.map((entry) => ({ path: entry.path, op: "icontains", value: entry.value })) },
  ];
}

/** The strings icontains looks at on each item, as the compiled path reads them, in item order. */
function stringsOf(list: readonly unknown[], path: string): string[] {
  const read = compileFilterPath(path).read;
  return list.flatMap((item, index) => {
    const value = read(item, index);
    if (typeof value === "string") return [value];
    return Array.isArray(value) ? value.filter((element) => typeof element === "string") : [];
  });
}

function scanWith(
  list: readonly unknown[],
  filters: Filter[],
  store: ColumnStore | null,
  fractions: readonly number[],
): FilterOutcome {
  const scan = createFilterScan(list, compileFilters(filters), store);
  for (const [start, end] of slicesOf(list.length, fractions)) scan.scan(start, end);
  return scan.finish();
}

describe("text columns (property)", () => {
  it("answer a first and a later question exactly as the loops without a store, in any slicing", () => {
    let searched = 0;
    fc.assert(
      fc.property(items, leaves, leaves, cuts, cuts, (list, first, later, cuts0, cuts1) => {
        const cache = createViewCache();
        const store = columnStoreOf(viewSlotOf(cache, list, "view"), 0);
        const firstFilters = anyOf(first);
        expect(scanWith(list, firstFilters, store, cuts0)).toEqual(
          applyFilters(list, compileFilters(firstFilters)),
        );
        for (const { path } of first) {
          const column = keptTextColumn(store as ColumnStore, list, compileFilterPath(path));
          if (column === undefined) continue;
          const strings = stringsOf(list, path);
          expect(column.text).toBe(strings.join("\n"));
          // Each string starts one past the previous one's end; then the sentinel.
          let at = 0;
          const starts = strings.map((string) => {
            const start = at;
            at += string.length + 1;
            return start;
          });
          expect([...column.starts]).toEqual([...starts, at]);
        }
        // The later question: other needles (and paths) over the columns the first one kept.
        const laterFilters = anyOf(later);
        if (cache.size > 0) searched += 1;
        expect(scanWith(list, laterFilters, store, cuts1)).toEqual(
          applyFilters(list, compileFilters(laterFilters)),
        );
      }),
      { numRuns: 1500 },
    );
    expect(searched).toBeGreaterThan(300);
  });
});
