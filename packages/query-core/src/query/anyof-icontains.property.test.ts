import type { Filter } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import {
  applyFiltersWithAnyOf,
  filterGroupsOf,
  isPlainIcontains,
  type ScanRange,
} from "./filter-loops.js";
import { type CompiledFilter, compileFilters, createFilterScan } from "./filters.js";

// An anyOf of two ASCII icontains at one own key or two steps runs on a loop of its own
// (applyAnyOfIcontains); every other anyOf on the general one. For random items (strings with the
// characters whose case mapping is special, arrays of strings, null, missing values, numbers and
// exact numbers, objects, non-object items) and needles (ASCII and not), the loop createFilterScan
// picks must give the general loop's outcome and the reference's (a plain fold with
// toLowerCase().includes), in any slicing.

const unit = fc.oneof(
  { arbitrary: fc.constantFrom(..."abikAIK 7/.".split("")), weight: 6 },
  { arbitrary: fc.constantFrom("İ", "K", "ß", "Σ", "ſ", "é", "\u0307"), weight: 2 },
);
const text = fc.array(unit, { maxLength: 8 }).map((units) => units.join(""));
const needle = fc
  .oneof(
    {
      arbitrary: fc.array(fc.constantFrom(..."abikAIK 7/.".split("")), { maxLength: 3 }),
      weight: 4,
    },
    { arbitrary: fc.array(unit, { maxLength: 3 }), weight: 1 },
  )
  .map((units) => (Array.isArray(units) ? units.join("") : units));
/** Literals written into the items' JSON text: exact numbers stay ExactNumbers after parsing. */
const literal = fc.oneof(
  text.map((value) => JSON.stringify(value)),
  fc.array(fc.oneof(text, fc.constant(1)), { maxLength: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom("null", "7", "-0", "12345678901234567890", "1e400", "{}", '{"u":"ab"}'),
  fc.constantFrom('[{"u":"aK"}]', '[["ab"],"7"]', '{"length":"ab","constructor":"k"}'),
);
const record = fc
  .record(
    {
      name: literal,
      p: fc.oneof(
        literal,
        fc.dictionary(fc.constantFrom("u", "v", "length", "constructor"), literal),
      ),
      length: literal,
      constructor: fc.oneof(literal, fc.dictionary(fc.constantFrom("u"), literal)),
    },
    { requiredKeys: [] },
  )
  .map((fields) => {
    const entries = Object.entries(fields).map(([key, value]) => {
      const inner =
        typeof value === "string"
          ? value
          : `{${Object.entries(value)
              .map(([name, written]) => `${JSON.stringify(name)}:${written}`)
              .join(",")}}`;
      return `${JSON.stringify(key)}:${inner}`;
    });
    return `{${entries.join(",")}}`;
  });
const itemText = fc.oneof({ arbitrary: record, weight: 8 }, { arbitrary: literal, weight: 1 });
const items = fc
  .array(itemText, { maxLength: 30 })
  .map((texts) => parseJsonExact(`[${texts.join(",")}]`) as unknown[]);
const path = fc.constantFrom(
  "/name",
  "/p/u",
  "name",
  "/p/0",
  "/p",
  "/p/u/0",
  "/length",
  "/p/length",
  "/0/u",
  "/constructor/u",
  "/p/constructor",
  "/__proto__/valueOf",
);
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 });

function reference(value: unknown, wanted: string): boolean {
  const lowered = wanted.toLowerCase();
  const contains = (element: unknown) =>
    typeof element === "string" && element.toLowerCase().includes(lowered);
  return Array.isArray(value) ? value.some(contains) : contains(value);
}

function read(item: unknown, pointer: string): unknown {
  let current = item;
  for (const token of pointer.startsWith("/") ? pointer.slice(1).split("/") : [pointer]) {
    if (typeof current !== "object" || current === null) return undefined;
    if (Array.isArray(current)) {
      // Canonical array indices only (SPEC.md §4: an array's `length` has no pointer).
      if (!/^(?:0|[1-9][0-9]*)$/.test(token) || Number(token) >= current.length) return undefined;
    } else if (!Object.hasOwn(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** The general anyOf loop over the whole range, as createFilterScan's outcome. */
function generalOutcome(list: readonly unknown[], compiled: readonly CompiledFilter[]) {
  const inner = compiled.map((filter) => new Float64Array(2 * (filter.anyOf?.length ?? 0)));
  const range: ScanRange = { start: 0, end: list.length, counts: new Float64Array(2), indices: [] };
  applyFiltersWithAnyOf(list, filterGroupsOf(compiled, inner), range);
  return { indices: range.indices, counts: [...range.counts], inner: [...(inner[0] ?? [])] };
}

function slicesOf(length: number, fractions: readonly number[]): [number, number][] {
  const points = [
    ...new Set([0, ...fractions.map((fraction) => Math.floor(fraction * length)), length]),
  ].sort((left, right) => left - right);
  return points.slice(1).map((end, at) => [points[at] as number, end]);
}

describe("anyOf of two icontains (property)", () => {
  it("gives the general loop's and the reference's outcome, with honest counts, in any slicing", () => {
    let fastRuns = 0;
    fc.assert(
      fc.property(
        items,
        path,
        needle,
        path,
        needle,
        cuts,
        (list, path0, value0, path1, value1, fractions) => {
          const filters: Filter[] = [
            {
              anyOf: [
                { path: path0, op: "icontains", value: value0 },
                { path: path1, op: "icontains", value: value1 },
              ],
            },
          ];
          const compiled = compileFilters(filters);
          const groups = filterGroupsOf(compiled, [new Float64Array(4)]);
          const fast = isPlainIcontains(groups[0] as (typeof groups)[0]);
          const ascii = (value: string) =>
            value.length > 0 && [...value.toLowerCase()].every((char) => char.charCodeAt(0) < 0x80);
          expect(fast).toBe(
            ascii(value0) && ascii(value1) && path0 !== "/p/u/0" && path1 !== "/p/u/0",
          );
          if (fast) fastRuns += 1;
          const scan = createFilterScan(list, compiled);
          for (const [start, end] of slicesOf(list.length, fractions)) scan.scan(start, end);
          const outcome = scan.finish();
          const general = generalOutcome(list, compiled);
          const leaves = [
            [path0, value0],
            [path1, value1],
          ] as const;
          const held = list.map((item) =>
            leaves.map(([at, value]) => reference(read(item, at), value)),
          );
          const resolved = list.map((item) => leaves.map(([at]) => read(item, at) !== undefined));
          const expectedIndices = held.flatMap((hits, index) =>
            hits.some(Boolean) ? [index] : [],
          );
          const count = (rows: boolean[][], at: number) => rows.filter((row) => row[at]).length;
          expect(outcome.indices ?? []).toEqual(expectedIndices);
          expect(general.indices).toEqual(expectedIndices);
          const expectedApplied = {
            anyOf: leaves.map(([at], position) => ({
              path: at,
              op: "icontains",
              resolvedOn: count(resolved, position),
              matched: count(held, position),
            })),
            resolvedOn: resolved.filter((row) => row.some(Boolean)).length,
            matched: expectedIndices.length,
          };
          expect(outcome.applied).toEqual([expectedApplied]);
          expect(general.counts).toEqual([expectedApplied.resolvedOn, expectedApplied.matched]);
          expect(general.inner).toEqual(
            expectedApplied.anyOf.flatMap((leaf) => [leaf.resolvedOn, leaf.matched]),
          );
        },
      ),
      { numRuns: 2000 },
    );
    expect(fastRuns).toBeGreaterThan(300);
  });
});
