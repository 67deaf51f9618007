import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runQuery } from "./run-query.js";
import {
  canonicalReference as canonical,
  compareReference as compareValues,
  type Json,
  readReference as read,
} from "./test-support/json-reference.js";
import { ARTIFACT_ID, createTestContext } from "./test-support/query-harness.js";

// SPEC.md §9 against a naive reference: a plain fold over the parsed document, with its own
// pointer reader and type order (test-support/json-reference.ts), deep equality, filters, stable sort and grouping. Random
// documents and random sort / aggregate / anyOf / nin / measure requests must give the reference's
// answer, page after page by nextCursor (each row once, in order, totalCount = visits, every page
// within inlineBytes), or the reference's FILTER_PATH_UNRESOLVED paths.

type Item = Record<string, Json>;

// ---------- the reference ----------

const same = (left: Json, right: Json) => canonical(left) === canonical(right);

function measured(value: Json | undefined, measure: boolean): Json | undefined {
  if (!measure) return value;
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  return undefined;
}

interface LeafInput {
  path: string;
  op?: string;
  value?: Json;
  measure?: "length";
}
type FilterInput = LeafInput | { anyOf: LeafInput[] };

function holds(filter: LeafInput, item: Json): boolean {
  const actual = measured(read(item, filter.path), filter.measure !== undefined);
  const expected = filter.value as Json;
  switch (filter.op ?? "eq") {
    case "eq":
      return actual !== undefined && same(actual, expected);
    case "ne":
      return actual !== undefined && !same(actual, expected);
    case "in":
      return actual !== undefined && (expected as Json[]).some((one) => same(actual, one));
    case "nin":
      return actual !== undefined && !(expected as Json[]).some((one) => same(actual, one));
    case "contains":
      if (typeof actual === "string")
        return typeof expected === "string" && actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((element) => same(element, expected));
      return (
        actual !== null &&
        typeof actual === "object" &&
        typeof expected === "string" &&
        Object.hasOwn(actual, expected)
      );
    case "icontains": {
      const needle = (expected as string).toLowerCase();
      const strings = Array.isArray(actual) ? actual : [actual];
      return strings.some((s) => typeof s === "string" && s.toLowerCase().includes(needle));
    }
    case "exists":
      return (actual !== undefined) === (expected !== false);
    default: {
      if (typeof actual !== typeof expected || !["number", "string"].includes(typeof actual)) {
        return false;
      }
      const a = actual as number;
      const b = expected as number;
      return { lt: a < b, lte: a <= b, gt: a > b, gte: a >= b }[filter.op as "lt"];
    }
  }
}

function passes(filter: FilterInput, item: Json): boolean {
  return "anyOf" in filter ? filter.anyOf.some((leaf) => holds(leaf, item)) : holds(filter, item);
}

interface MetricInput {
  op: string;
  path?: string;
  measure?: "length";
}
interface RequestInput {
  filters?: FilterInput[];
  sort?: { path: string; order?: "asc" | "desc"; measure?: "length" }[];
  aggregate?: { groupBy?: string | string[]; unwind?: boolean; metrics?: MetricInput[] };
}

const labelOf = (metric: MetricInput) =>
  metric.op === "count"
    ? "count"
    : `${metric.op}(${metric.measure ? `len(${metric.path})` : metric.path})`;

function sortRows(
  rows: Json[],
  sort: NonNullable<RequestInput["sort"]>,
  labels?: string[],
): Json[] {
  const keyOf = (row: Json, path: string) =>
    labels?.includes(path) ? (row as Item)[path] : read(row, path);
  return rows
    .map((row, position) => ({ row, position }))
    .sort((left, right) => {
      for (const key of sort) {
        const order = compareValues(
          measured(keyOf(left.row, key.path), key.measure !== undefined),
          measured(keyOf(right.row, key.path), key.measure !== undefined),
          key.order === "desc",
        );
        if (order !== 0) return order;
      }
      return left.position - right.position;
    })
    .map((entry) => entry.row);
}

function distinct(values: Json[]): Json[] {
  return values.filter((value, index) => values.findIndex((other) => same(other, value)) === index);
}

function aggregateRows(items: Json[], aggregate: NonNullable<RequestInput["aggregate"]>) {
  const groupBy =
    aggregate.groupBy === undefined
      ? []
      : typeof aggregate.groupBy === "string"
        ? [aggregate.groupBy]
        : aggregate.groupBy;
  const metrics = aggregate.metrics ?? [{ op: "count" }];
  const groups = new Map<string, { values: Json[]; members: Json[] }>();
  let skipped = 0;
  for (const item of items) {
    const values = groupBy.map((path) => read(item, path));
    if (values.some((value) => value === undefined)) {
      skipped += 1;
      continue;
    }
    let combos: Json[][] = [[]];
    for (const value of values as Json[]) {
      const options = aggregate.unwind && Array.isArray(value) ? distinct(value) : [value];
      combos = combos.flatMap((combo) => options.map((option) => [...combo, option]));
    }
    if (combos.length === 0) skipped += 1;
    for (const combo of combos) {
      const key = canonical(combo);
      const group = groups.get(key) ?? { values: combo, members: [] };
      group.members.push(item);
      groups.set(key, group);
    }
  }
  if (groupBy.length === 0 && items.length === 0) {
    return {
      skipped,
      rows: [Object.fromEntries(metrics.map((m) => [labelOf(m), m.op === "count" ? 0 : null]))],
    };
  }
  const ordered = [...groups.values()].sort((left, right) => {
    if (left.members.length !== right.members.length) {
      return right.members.length - left.members.length;
    }
    for (let at = 0; at < groupBy.length; at += 1) {
      const order = compareValues(left.values[at], right.values[at], false);
      if (order !== 0) return order;
    }
    return 0;
  });
  const rows = ordered.map((group) => {
    const row: Item = {};
    groupBy.forEach((path, at) => {
      row[path] = group.values[at] as Json;
    });
    for (const metric of metrics) {
      const values = group.members
        .map((member) => measured(read(member, metric.path ?? ""), metric.measure !== undefined))
        .filter((value): value is Json => value !== undefined);
      const numbers = values.filter((value): value is number => typeof value === "number");
      const comparable = values.filter((v) => typeof v === "number" || typeof v === "string");
      const sum = numbers.reduce((total, value) => total + value, 0);
      const best = (sign: number) =>
        comparable.reduce<Json>(
          (current, value) =>
            current === null || sign * compareValues(value, current, false) > 0 ? value : current,
          null,
        );
      row[labelOf(metric)] = {
        count: group.members.length,
        countDistinct: distinct(values).length,
        sum,
        avg: numbers.length === 0 ? null : sum / numbers.length,
        min: best(-1),
        max: best(1),
      }[metric.op] as Json;
    }
    return row as Json;
  });
  return { rows, skipped };
}

const resolvesSomewhere = (rows: Json[], path: string) =>
  rows.some((row) => read(row, path) !== undefined);

type Expected = { rows: Json[]; skipped?: number } | { unresolved: string[] };

/** The whole answer of the reference: every row in order, or the unresolved paths. */
function reference(items: Json[], request: RequestInput): Expected {
  const unresolved: string[] = [];
  const note = (path: string) => {
    if (items.length > 0 && !resolvesSomewhere(items, path) && !unresolved.includes(path)) {
      unresolved.push(path);
    }
  };
  for (const filter of request.filters ?? []) {
    const leaves = "anyOf" in filter ? filter.anyOf : [filter];
    if (leaves.some((leaf) => leaf.op === "exists")) continue;
    if (leaves.every((leaf) => !resolvesSomewhere(items, leaf.path))) {
      for (const leaf of leaves) note(leaf.path);
    }
  }
  const selected = items.filter((item) =>
    (request.filters ?? []).every((filter) => passes(filter, item)),
  );
  if (request.aggregate !== undefined) {
    const groupBy = request.aggregate.groupBy;
    for (const path of typeof groupBy === "string" ? [groupBy] : (groupBy ?? [])) note(path);
    for (const metric of request.aggregate.metrics ?? []) if (metric.path) note(metric.path);
    if (unresolved.length > 0) return { unresolved };
    const { rows, skipped } = aggregateRows(selected, request.aggregate);
    if (request.sort === undefined) return { rows, skipped };
    const labels = Object.keys((rows[0] ?? {}) as Item);
    const missing = request.sort
      .map((key) => key.path)
      .filter(
        (path) => rows.length > 0 && !labels.includes(path) && !resolvesSomewhere(rows, path),
      );
    if (missing.length > 0) return { unresolved: [...new Set(missing)] };
    return { rows: sortRows(rows, request.sort, labels), skipped };
  }
  for (const key of request.sort ?? []) note(key.path);
  if (unresolved.length > 0) return { unresolved };
  return { rows: request.sort === undefined ? selected : sortRows(selected, request.sort) };
}

// ---------- random documents and requests ----------

const text = fc.constantFrom("alpha", "Alpha", "beta", "BETA", "gamma", "");
const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constant("x".repeat(120)),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }),
  text,
);
const value: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: scalar, weight: 5 },
  {
    arbitrary: fc.array(fc.oneof(text, fc.integer({ min: 0, max: 3 })), { maxLength: 4 }),
    weight: 2,
  },
  { arbitrary: fc.record({ x: scalar }, { requiredKeys: [] }), weight: 1 },
);
const item = fc.record(
  { a: value, b: value, tags: value, o: value, c: value },
  { requiredKeys: [] },
);
const items = fc
  .oneof(
    { arbitrary: fc.array(item, { minLength: 3, maxLength: 30 }), weight: 9 },
    fc.array(item, { maxLength: 2 }),
  )
  .map((list) => JSON.parse(JSON.stringify(list)) as Json[]);

const path = fc.oneof(
  { arbitrary: fc.constantFrom("/a", "/b", "/tags", "c"), weight: 16 },
  { arbitrary: fc.constantFrom("/o/x", "/tags/0"), weight: 3 },
  { arbitrary: fc.constantFrom("/zz", "zz"), weight: 1 },
);
const numberOrString = fc.oneof(fc.integer({ min: -5, max: 5 }), text);
const leaf: fc.Arbitrary<LeafInput> = fc.oneof(
  fc.record({ path, op: fc.constantFrom("eq", "ne", "contains"), value }),
  fc.record({ path, op: fc.constantFrom("in", "nin"), value: fc.array(scalar, { maxLength: 3 }) }),
  fc.record({ path, op: fc.constant("icontains"), value: fc.constantFrom("a", "ALP", "et", "x") }),
  fc.record({ path, op: fc.constantFrom("lt", "lte", "gt", "gte"), value: numberOrString }),
  fc.record({ path, op: fc.constant("exists"), value: fc.boolean() }),
  fc.record({
    path,
    op: fc.constantFrom("eq", "ne", "lt", "lte", "gt", "gte"),
    value: fc.integer({ min: 0, max: 4 }),
    measure: fc.constant("length" as const),
  }),
  fc.record({
    path,
    op: fc.constantFrom("in", "nin"),
    value: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
    measure: fc.constant("length" as const),
  }),
);
const filter: fc.Arbitrary<FilterInput> = fc.oneof(
  { arbitrary: leaf, weight: 3 },
  { arbitrary: fc.record({ anyOf: fc.array(leaf, { minLength: 2, maxLength: 3 }) }), weight: 2 },
);
const sortKey = (paths: fc.Arbitrary<string>) =>
  fc.record(
    {
      path: paths,
      order: fc.constantFrom("asc" as const, "desc" as const),
      measure: fc.constant("length" as const),
    },
    { requiredKeys: ["path"] },
  );
const metric: fc.Arbitrary<MetricInput> = fc.oneof(
  fc.constant({ op: "count" }),
  fc.record(
    {
      op: fc.constantFrom("countDistinct", "sum", "avg", "min", "max"),
      path,
      measure: fc.constant("length" as const),
    },
    { requiredKeys: ["op", "path"] },
  ),
);
const aggregate = fc.record(
  {
    groupBy: fc.oneof(
      { arbitrary: path, weight: 3 },
      { arbitrary: fc.uniqueArray(path, { minLength: 1, maxLength: 2 }), weight: 1 },
    ),
    unwind: fc.boolean(),
    metrics: fc.uniqueArray(metric, { minLength: 1, maxLength: 4, selector: labelOf }),
  },
  { requiredKeys: ["groupBy"] },
);
const rowSortPath = fc.oneof(
  { arbitrary: fc.constantFrom("count", "/a", "c"), weight: 8 },
  { arbitrary: fc.constantFrom("/tags", "sum(/a)", "max(/b)", "/zz"), weight: 1 },
);

const request: fc.Arbitrary<RequestInput> = fc.oneof(
  fc.record(
    {
      filters: fc.array(filter, { maxLength: 2 }),
      sort: fc.array(sortKey(path), { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: ["sort"] },
  ),
  fc.record(
    {
      filters: fc.array(filter, { maxLength: 2 }),
      aggregate,
      sort: fc.array(sortKey(rowSortPath), { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ["aggregate"] },
  ),
  fc.record({ filters: fc.array(filter, { minLength: 1, maxLength: 3 }) }),
);

// ---------- the engine, page by page ----------

function parse(input: Record<string, unknown>): QueryRequest {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  if (!parsed.success) throw new Error(`rejected ${JSON.stringify(parsed.error)}`);
  return parsed.data;
}

/** Drops `unwind: true` without groupBy (the contract refuses it; the generator can make it). */
function valid(input: RequestInput): RequestInput {
  const aggregate = input.aggregate;
  if (aggregate?.unwind === true && aggregate.groupBy === undefined) {
    return { ...input, aggregate: { ...aggregate, unwind: false } };
  }
  return input;
}

interface Walk {
  rows: Json[];
  totals: Set<number>;
  skipped: Set<number | undefined>;
  error?: { code: string; details: { paths: string[] } };
}

function walk(document: unknown, base: Record<string, unknown>, budget: number): Walk {
  const context = createTestContext({ limits: { ...DEFAULT_LIMITS, inlineBytes: budget } });
  const out: Walk = { rows: [], totals: new Set(), skipped: new Set() };
  let cursor: string | undefined;
  for (let page = 0; page < 500; page += 1) {
    const input = cursor === undefined ? base : { ...base, cursor };
    const outcome = runQuery(document, parse(input), context);
    const text = JSON.stringify(outcome.result);
    // biome-ignore lint/suspicious/noExplicitAny: reads any envelope.
    const result = JSON.parse(text) as any;
    if (outcome.isError) {
      out.error = result.response.error;
      return out;
    }
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(budget);
    expect(result.responseMeta.truncationReason).not.toBe("item_size_limit");
    out.rows.push(...result.response);
    out.totals.add(result.responseMeta.totalCount);
    out.skipped.add(result.responseMeta.aggregateSkipped);
    cursor = result.responseMeta.nextCursor ?? undefined;
    if (cursor === undefined) return out;
  }
  throw new Error("more than 500 pages");
}

const budgets = fc.constantFrom(1_500, 4_096, DEFAULT_LIMITS.inlineBytes);
const pageSizes = fc.integer({ min: 1, max: 7 });

/** How many checks ended in rows (more than one), in an error, or empty: the tests assert a mix. */
const outcomes = { rows: 0, errors: 0, empty: 0, pages: 0 };

function check(
  document: unknown,
  list: Json[],
  input: RequestInput,
  base: Record<string, unknown>,
  budget: number,
): void {
  const expected = reference(list, input);
  const got = walk(document, base, budget);
  if ("unresolved" in expected) outcomes.errors += 1;
  else if (expected.rows.length > 1) outcomes.rows += 1;
  else outcomes.empty += 1;
  if (got.totals.size > 0 && got.rows.length > 0) outcomes.pages += 1;
  if ("unresolved" in expected) {
    expect(got.error?.code).toBe("FILTER_PATH_UNRESOLVED");
    expect(got.error?.details.paths).toEqual(expected.unresolved);
    return;
  }
  expect(got.error).toBeUndefined();
  expect(got.rows).toEqual(expected.rows);
  expect([...got.totals]).toEqual([expected.rows.length]);
  if (input.aggregate !== undefined) expect([...got.skipped]).toEqual([expected.skipped]);
}

describe("§9 extensions against a naive reference", { timeout: 120_000 }, () => {
  afterAll(() => {
    // Not a vacuous property: most checks compared several rows, some an error.
    expect(outcomes.rows).toBeGreaterThan(outcomes.errors);
    expect(outcomes.errors).toBeGreaterThan(20);
  });

  it("answers random sort, aggregate, anyOf, nin and measure requests on arrays as the reference, page by page", () => {
    fc.assert(
      fc.property(items, request, pageSizes, budgets, (list, generated, pageSize, budget) => {
        const input = valid(generated);
        check({ list }, list, input, { responsePath: "/list", pageSize, ...input }, budget);
        if (process.env["SHOW_OUTCOMES"]) console.log(JSON.stringify(outcomes));
      }),
      { numRuns: 400 },
    );
  });

  it("answers the same requests on objectMode entries, paths under /value", () => {
    const underValue = (p: string) => (p.startsWith("/") ? `/value${p}` : `/value/${p}`);
    const moveLeaf = (leaf: LeafInput): LeafInput => ({ ...leaf, path: underValue(leaf.path) });
    fc.assert(
      fc.property(items, request, pageSizes, (list, generated, pageSize) => {
        const input = valid(generated);
        const keyed = Object.fromEntries(list.map((entry, index) => [`k${index}`, entry]));
        const rowsOf = Object.entries(keyed).map(([key, entry]) => ({ key, value: entry }));
        const moved: RequestInput = {
          ...(input.filters && {
            filters: input.filters.map((f) =>
              "anyOf" in f ? { anyOf: f.anyOf.map(moveLeaf) } : moveLeaf(f),
            ),
          }),
        };
        if (input.aggregate !== undefined) {
          const groupBy = input.aggregate.groupBy;
          moved.aggregate = {
            ...input.aggregate,
            ...(groupBy !== undefined && {
              groupBy: typeof groupBy === "string" ? underValue(groupBy) : groupBy.map(underValue),
            }),
            ...(input.aggregate.metrics && {
              metrics: input.aggregate.metrics.map((m) =>
                m.path === undefined ? m : { ...m, path: underValue(m.path) },
              ),
            }),
          };
          if (input.sort) moved.sort = input.sort;
          // "/zz" and "zz" are two labels at the top level but one ("/value/zz") once moved: the
          // contract refuses such a request, so it is not one this property can compare.
          const labels = [
            ...(groupBy === undefined ? [] : typeof groupBy === "string" ? [groupBy] : groupBy).map(
              underValue,
            ),
            ...(moved.aggregate.metrics ?? []).map((m) =>
              JSON.stringify([m.op, m.path, m.measure]),
            ),
          ];
          fc.pre(new Set(labels).size === labels.length);
        } else if (input.sort) {
          moved.sort = input.sort.map((key) => ({ ...key, path: underValue(key.path) }));
        }
        check(
          { keyed },
          rowsOf as unknown as Json[],
          moved,
          { responsePath: "/keyed", objectMode: "entries", pageSize, ...moved },
          DEFAULT_LIMITS.inlineBytes,
        );
      }),
      { numRuns: 200 },
    );
  });

  it("answers the same requests on jsonPath rows, paths under /value", () => {
    fc.assert(
      fc.property(
        items,
        fc.record({ sort: fc.array(sortKey(path), { minLength: 1, maxLength: 2 }) }),
        pageSizes,
        (list, input, pageSize) => {
          const rows = list.map((entry, index) => ({ pointer: `/list/${index}`, value: entry }));
          const moved = {
            sort: input.sort.map((key) => ({
              ...key,
              path: key.path.startsWith("/") ? `/value${key.path}` : `/value/${key.path}`,
            })),
          };
          check(
            { list },
            rows as unknown as Json[],
            moved,
            { jsonPath: "$.list[*]", pageSize, ...moved },
            4_096,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
