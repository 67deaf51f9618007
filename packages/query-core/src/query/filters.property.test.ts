import type { Filter } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rebaseOnEntries } from "./compiled-path.js";
import { applyFilters, type CompiledFilter, compileFilters } from "./filters.js";

// applyFilters reads one-property paths and decides comparisons (eq, ne, in, lt, lte, gt, gte on
// primitives) inline; these properties pin those fast paths to the filter's own compiled reader
// and test, item by item.
const key = fc.constantFrom("a", "id", "0", "length", "constructor", "__proto__", "toString", "");
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -2, max: 2 }),
  fc.constantFrom(0.5, -0, 1e21),
  key,
);
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: "value" },
    scalar,
    fc.array(tie("value"), { maxLength: 4, depthIdentifier: "value" }),
    fc.dictionary(key, tie("value"), { maxKeys: 4, depthIdentifier: "value" }),
  ),
}));
/** Parsed JSON, as the engine receives it (an own `__proto__` key is data). */
const items = fc
  .array(jsonValue, { maxLength: 12 })
  .map((values) => JSON.parse(JSON.stringify(values)) as unknown[]);
const path = fc.oneof(
  key,
  key.map((name) => `/${name}`),
  fc.array(key, { minLength: 2, maxLength: 4 }).map((names) => `/${names.join("/")}`),
  fc.constantFrom("", "/a/0", "/0/a", "/01", "/-"),
);
const ALL_OPS = [
  "eq",
  "ne",
  "in",
  "contains",
  "icontains",
  "lt",
  "lte",
  "gt",
  "gte",
  "exists",
] as const;
const filter: fc.Arbitrary<Filter> = fc.record(
  {
    path,
    op: fc.constantFrom(...ALL_OPS),
    value: fc.oneof(scalar, jsonValue, fc.array(scalar, { maxLength: 3 })),
  },
  { requiredKeys: ["path", "value"] },
) as fc.Arbitrary<Filter>;

/** The counts and kept indices as the contract defines them, through each filter's own reader. */
function reference(values: readonly unknown[], compiled: readonly CompiledFilter[]) {
  const resolvedOn = compiled.map(() => 0);
  const matched = compiled.map(() => 0);
  const indices: number[] = [];
  values.forEach((item, index) => {
    let keep = true;
    compiled.forEach((current, position) => {
      const actual = current.path.read(item, index);
      if (actual !== undefined) resolvedOn[position] = (resolvedOn[position] as number) + 1;
      if (current.test(actual)) matched[position] = (matched[position] as number) + 1;
      else keep = false;
    });
    if (keep) indices.push(index);
  });
  return {
    indices,
    applied: compiled.map((current, position) => ({
      path: current.path.label,
      op: current.op,
      resolvedOn: resolvedOn[position],
      matched: matched[position],
    })),
  };
}

describe("applyFilters", () => {
  it("counts and keeps exactly what each filter's own reader and test decide, on array items", () => {
    fc.assert(
      fc.property(items, fc.array(filter, { minLength: 1, maxLength: 4 }), (values, filters) => {
        const compiled = compileFilters(filters);
        expect(applyFilters(values, compiled)).toEqual(reference(values, compiled));
      }),
      { numRuns: 400 },
    );
  });

  it("decides every inline comparison at one own property exactly as the filter's test", () => {
    const comparison = fc.record({
      path: fc.oneof(
        key,
        key.map((name) => `/${name}`),
      ),
      op: fc.constantFrom("eq", "ne", "in", "lt", "lte", "gt", "gte"),
      value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
    }) as fc.Arbitrary<Filter>;
    fc.assert(
      fc.property(
        items,
        fc.array(comparison, { minLength: 1, maxLength: 2 }),
        (values, filters) => {
          const compiled = compileFilters(filters);
          expect(applyFilters(values, compiled)).toEqual(reference(values, compiled));
        },
      ),
      { numRuns: 600 },
    );
  });

  it("does the same on objectMode entries, whose paths are read below /value or as /key", () => {
    const entryPath = fc.oneof(
      key.map((name) => `/value/${name}`),
      fc.array(key, { minLength: 2, maxLength: 3 }).map((names) => `/value/${names.join("/")}`),
      fc.constantFrom("/key", "/value", "", "/other"),
    );
    const entryFilter = fc.record({
      path: entryPath,
      op: fc.constantFrom(...ALL_OPS),
      value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
    }) as fc.Arbitrary<Filter>;
    fc.assert(
      fc.property(
        items,
        fc.array(entryFilter, { minLength: 1, maxLength: 2 }),
        (values, filters) => {
          const keys = values.map((_value, index) => `entry-${index}`);
          const compiled = compileFilters(filters).map((current) => ({
            ...current,
            path: rebaseOnEntries(current.path, keys),
          }));
          expect(applyFilters(values, compiled)).toEqual(reference(values, compiled));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads a name Object.prototype has only as an own key, at every depth of a filter path", () => {
    const nodes = JSON.parse(
      JSON.stringify([
        { a: { b: { constructor: 1 } } },
        { a: { b: {} } },
        { a: { b: [] } },
        { a: { toString: 2 } },
        { a: {} },
      ]),
    ) as unknown[];
    const compiled = compileFilters([
      { path: "/a/b/constructor", op: "exists" },
      { path: "/a/toString", op: "ne", value: 0 },
    ]);
    expect(applyFilters(nodes, compiled)).toEqual({
      indices: [],
      applied: [
        { path: "/a/b/constructor", op: "exists", resolvedOn: 1, matched: 1 },
        { path: "/a/toString", op: "ne", resolvedOn: 1, matched: 1 },
      ],
    });
    expect(applyFilters(nodes, compiled)).toEqual(reference(nodes, compiled));
  });

  it("reports honest counts over every item for one and two equality filters", () => {
    const nodes = JSON.parse(
      JSON.stringify([
        { type: "http", disabled: false },
        { type: "http", disabled: true },
        { type: "code" },
        ["http"],
        "http",
        null,
        { type: "http", disabled: false, constructor: 1 },
      ]),
    ) as unknown[];
    const one = compileFilters([{ path: "type", value: "http" }]);
    expect(applyFilters(nodes, one)).toEqual({
      indices: [0, 1, 6],
      applied: [{ path: "type", op: "eq", resolvedOn: 4, matched: 3 }],
    });
    const two = compileFilters([
      { path: "/type", value: "http" },
      { path: "/disabled", value: false },
    ]);
    expect(applyFilters(nodes, two)).toEqual({
      indices: [0, 6],
      applied: [
        { path: "/type", op: "eq", resolvedOn: 4, matched: 3 },
        { path: "/disabled", op: "eq", resolvedOn: 3, matched: 2 },
      ],
    });
  });
});
