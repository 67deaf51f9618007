import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGrouping, finishRows, groupItems } from "./aggregate-rows.js";
import { compileAggregate } from "./extensions.js";

// groupItems with one groupBy path and only `count` metrics runs a loop of its own (countGroups);
// here it is checked against a plain fold: the groups (by deep equality, -0 as 0), their counts,
// the items skipped and the items the path resolved on, with and without unwind, on arrays
// short and long (over 16 elements the distinct elements come from sets), in slices.

type Json = null | boolean | number | string | Json[] | { x: Json };

const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom("a", "b", "A", "", "0", 0, -0, 1, 2.5, true, false, null),
  fc.integer({ min: -2, max: 2 }),
);
const element: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  { arbitrary: scalar.map((x) => ({ x })), weight: 1 },
  { arbitrary: fc.array(scalar, { maxLength: 2 }), weight: 1 },
);
const value: fc.Arbitrary<Json | undefined> = fc.oneof(
  { arbitrary: element, weight: 3 },
  { arbitrary: fc.array(element, { maxLength: 6 }), weight: 3 },
  { arbitrary: fc.array(element, { minLength: 17, maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);
const item = fc.oneof(
  { arbitrary: value.map((t) => (t === undefined ? { other: 1 } : { t })), weight: 8 },
  { arbitrary: fc.constantFrom<unknown>(null, 3, "s", [1]), weight: 1 },
);

/** JSON text with -0 as 0 and object keys as written (every object here has one key). */
const keyOf = (json: Json): string => JSON.stringify(json);

function reference(items: readonly unknown[], unwind: boolean) {
  const counts = new Map<string, number>();
  let skipped = 0;
  let resolved = 0;
  for (const entry of items) {
    const found =
      typeof entry === "object" && entry !== null && !Array.isArray(entry)
        ? (entry as { t?: Json }).t
        : undefined;
    if (found === undefined) {
      skipped += 1;
      continue;
    }
    resolved += 1;
    const members =
      unwind && Array.isArray(found) ? [...new Set(found.map(keyOf))] : [keyOf(found)];
    if (members.length === 0) skipped += 1;
    for (const key of members) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return {
    groups: [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    skipped,
    resolved,
  };
}

describe("groupItems, one path counted (property)", () => {
  it("forms the groups, counts, skips and resolved counts of a plain fold", () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 60 }),
        fc.boolean(),
        fc.oneof(fc.constant(undefined), fc.constant([{ op: "count" as const }])),
        fc.integer({ min: 1, max: 7 }),
        (items, unwind, metrics, slice) => {
          const aggregate = compileAggregate({
            artifactId: "a",
            aggregate: { groupBy: "/t", unwind, ...(metrics && { metrics }) },
          } as Parameters<typeof compileAggregate>[0]);
          const grouping = createGrouping(aggregate as NonNullable<typeof aggregate>);
          for (let start = 0; start < items.length; start += slice) {
            groupItems(grouping, items, null, start, Math.min(items.length, start + slice));
          }
          const rows = finishRows(grouping);
          const groups = rows
            .map((row): [string, number] => [keyOf(row["/t"] as Json), row["count"] as number])
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          expect({
            groups,
            skipped: grouping.skipped,
            resolved: grouping.resolved[0],
          }).toEqual(reference(items, unwind));
          expect(grouping.selected).toBe(items.length);
        },
      ),
      { numRuns: 400 },
    );
  });
});
