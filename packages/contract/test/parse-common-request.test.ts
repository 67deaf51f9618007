import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, FILTER_OPS, parseQueryRequest } from "../src/index.js";
import { parseCommonRequest } from "../src/parse-common-request.js";
import { parseQueryRequestBySchema } from "../src/parse-query-request.js";

const L = DEFAULT_LIMITS;
const ID = "Zq3xV9kLm2Pw8RtY6uNb4A";

const validPath = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("id", "/type", "/parameters/url", "", "/a~1b") },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ minLength: L.maxPathChars, maxLength: L.maxPathChars }) },
);
const path = fc.oneof(
  { weight: 8, arbitrary: validPath },
  {
    weight: 1,
    arbitrary: fc.string({ minLength: L.maxPathChars + 1, maxLength: L.maxPathChars + 2 }),
  },
  { weight: 1, arbitrary: fc.constantFrom(1, null, undefined, ["id"]) },
);
const scalar = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -5, max: 50_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 4 }),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, Number.POSITIVE_INFINITY, Number.NaN, -0) },
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  // biome-ignore lint/suspicious/noSparseArray: a hole, which the schema reads as undefined
  { weight: 1, arbitrary: fc.constant([1, , 3]) },
);
const op = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...FILTER_OPS) },
  { weight: 1, arbitrary: fc.constantFrom("equals", 1, undefined) },
);
const measure = fc.oneof(
  { weight: 4, arbitrary: fc.constant("length") },
  { weight: 1, arbitrary: fc.constantFrom("len", undefined) },
);
const leaf = fc.record({ path: validPath, op, value, measure }, { requiredKeys: ["path"] });
const filter = fc.oneof(
  { weight: 12, arbitrary: leaf },
  { weight: 1, arbitrary: fc.record({ path, op, value }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ path, extra: fc.constant(1) }) },
  { weight: 1, arbitrary: fc.record({ anyOf: fc.array(leaf, { maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.constantFrom(null, "type", [], Object.create({ path: "id" })) },
);
const sortKey = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      { path: validPath, order: fc.constantFrom("asc", "desc"), measure },
      { requiredKeys: ["path"] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ path, order: fc.constantFrom("up", undefined) }, { requiredKeys: [] }),
  },
);
const textSearch = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      { query: fc.string({ minLength: 1, maxLength: 3 }), caseSensitive: fc.boolean() },
      { requiredKeys: ["query"] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        query: fc.oneof(
          fc.constant(""),
          fc.string({
            minLength: L.maxTextSearchQueryChars,
            maxLength: L.maxTextSearchQueryChars + 1,
          }),
        ),
        caseSensitive: fc.constantFrom("yes", undefined),
        case_sensitive: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("x", null) },
);
/** Mostly valid members, each optional; the conflicting pairs and invalid members come up too. */
const members = {
  responsePath: path,
  describe: fc.constantFrom(true, false, true, 1, undefined),
  objectMode: fc.constantFrom("entries", "entries", "keys"),
  fields: fc.oneof(
    { weight: 6, arbitrary: fc.array(path, { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.constant("id"), {
        minLength: L.maxFields,
        maxLength: L.maxFields + 1,
      }),
    },
    { weight: 1, arbitrary: fc.constant("id") },
  ),
  filters: fc.oneof(
    { weight: 6, arbitrary: fc.array(filter, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.array(leaf, { minLength: L.maxFilters, maxLength: L.maxFilters + 1 }),
    },
  ),
  textSearch,
  pageSize: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: L.maxPageSize + 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(2.5, "20", 1e300) },
  ),
  cursor: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(5)),
  jsonPath: path,
  sort: fc.array(sortKey, { maxLength: L.maxSortKeys + 1 }),
  aggregate: fc.constantFrom({ groupBy: "/type" }, { groupBy: 1 }),
  artifact_id: fc.string({ maxLength: 3 }),
};
const request = fc
  .tuple(
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(ID) },
      { weight: 1, arbitrary: fc.constantFrom(7, undefined, "") },
    ),
    fc.subarray(Object.keys(members), { maxLength: 4 }),
    fc.record(members),
  )
  .map(([artifactId, keys, all]) => {
    const input: Record<string, unknown> = { artifactId };
    for (const key of keys) input[key] = all[key as keyof typeof all];
    return input;
  });

/** Requests a later page sends: the paging shapes, valid, each with a cursor. */
const paging = fc.record(
  {
    artifactId: fc.constant(ID),
    cursor: fc.string({ minLength: 1, maxLength: 64 }),
    responsePath: fc.constantFrom("", "/nodes"),
    fields: fc.array(fc.constantFrom("id", "name", "/parameters/url"), { maxLength: 3 }),
    filters: fc.array(
      fc.oneof(
        fc.record({ path: fc.constant("/type"), value: fc.string({ maxLength: 8 }) }),
        fc.record({
          path: fc.constant("/timeout"),
          op: fc.constantFrom("lt", "gte"),
          value: fc.integer(),
        }),
        fc.record({
          path: fc.constant("/tags"),
          op: fc.constantFrom("in", "nin"),
          value: fc.array(fc.string()),
        }),
      ),
      { maxLength: 3 },
    ),
    sort: fc.array(
      fc.record({ path: fc.constant("/name"), order: fc.constantFrom("asc", "desc") }),
      {
        minLength: 1,
        maxLength: 2,
      },
    ),
    pageSize: fc.integer({ min: 1, max: L.maxPageSize }),
  },
  { requiredKeys: ["artifactId", "cursor"] },
);

/** The outcome as a test compares it: the value, and its JSON text (which pins key order). */
const seen = (outcome: unknown) => ({ outcome, text: JSON.stringify(outcome) });

describe("parseCommonRequest", () => {
  it("gives the schema's outcome for any arguments, valid or not (property)", () => {
    fc.assert(
      fc.property(request, (input) => {
        expect(seen(parseQueryRequest(input))).toEqual(seen(parseQueryRequestBySchema(input)));
      }),
      { numRuns: 2_000 },
    );
  });

  it("accepts only what the schema accepts, as the copy the schema path makes (property)", () => {
    fc.assert(
      fc.property(request, (input) => {
        const common = parseCommonRequest(input);
        if (common === undefined) return;
        const schema = parseQueryRequestBySchema(input);
        expect(schema.success).toBe(true);
        expect(seen(common)).toEqual(seen(schema.success ? schema.data : null));
        expect(common).not.toBe(input);
      }),
      { numRuns: 2_000 },
    );
  });

  it("checks every paging shape by hand, as a copy the schema accepts (property)", () => {
    fc.assert(
      fc.property(paging, (input) => {
        const common = parseCommonRequest(input);
        expect(common).toBeDefined();
        expect(seen(common)).toEqual(
          seen((parseQueryRequestBySchema(input) as { data: unknown }).data),
        );
        for (const key of ["fields", "filters", "sort"] as const) {
          if (input[key] !== undefined) expect(common?.[key]).not.toBe(input[key]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("leaves to the schema what it is not sure of", () => {
    const hidden = { artifactId: ID };
    Object.defineProperty(hidden, "pageSize", { value: 0, enumerable: false });
    const inherited = Object.assign(Object.create({ pageSize: 0 }), { artifactId: ID });
    const undefinedMember = { artifactId: ID, cursor: undefined };
    for (const input of [
      hidden,
      inherited,
      undefinedMember,
      { artifactId: ID, aggregate: { groupBy: "/type" } },
      { artifactId: ID, filters: [{ anyOf: [{ path: "a" }, { path: "b" }] }] },
      { artifactId: ID, filters: [{ path: "/a", value: { nested: 1 } }] },
      { artifactId: ID, fields: ["id"], aggregate: { groupBy: "/type" } },
      { artifactId: ID, describe: true, fields: ["id"] },
      { artifactId: ID, filters: [{ path: "/a", op: "icontains", value: "x", measure: "length" }] },
    ]) {
      expect(parseCommonRequest(input)).toBeUndefined();
      expect(parseQueryRequest(input)).toEqual(parseQueryRequestBySchema(input));
    }
    // The schema path keeps undefined members and refuses the hidden and inherited pageSize.
    expect(parseQueryRequest(hidden).success).toBe(false);
    expect(parseQueryRequest(inherited).success).toBe(false);
    expect(parseQueryRequest(undefinedMember)).toEqual({ success: true, data: undefinedMember });
  });
});
