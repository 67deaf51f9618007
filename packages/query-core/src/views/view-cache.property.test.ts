import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageText } from "../query/page-result.js";
import { runQuery, runQueryAsync } from "../query/run-query.js";
import { ARTIFACT_ID, createTestContext } from "../query/test-support/query-harness.js";
import { createViewCache, type ViewCache } from "./view-cache.js";

// The view cache changes no answer: random documents and random views (filters with anyOf,
// sort, aggregate, fields, objectMode entries, jsonPath rows, small pages and budgets) are paged
// by nextCursor with the cache and without it, and every page's text must be byte-identical
// (the text kept by buildPage too, which a cached view writes from its envelope template).
// One cache serves every run, sometimes with a budget so small that it evicts as it goes.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const text = fc.constantFrom("alpha", "Alpha", "beta", "BETA", "", "x".repeat(90));
const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -4, max: 4 }),
  fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }),
  text,
);
const value: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: scalar, weight: 5 },
  {
    arbitrary: fc.array(fc.oneof(text, fc.integer({ min: 0, max: 3 })), { maxLength: 3 }),
    weight: 2,
  },
  { arbitrary: fc.record({ x: scalar }, { requiredKeys: [] }), weight: 1 },
);
const item = fc.record({ a: value, b: value, tags: value }, { requiredKeys: [] });
const items = fc.array(item, { maxLength: 70 });

const path = fc.constantFrom("/a", "/b", "/tags", "/tags/0", "/a/x", "/zz");
const leaf = fc.oneof(
  fc.record({ path, op: fc.constantFrom("eq", "ne", "contains"), value: scalar }),
  fc.record({ path, op: fc.constant("icontains"), value: fc.constantFrom("a", "ALP", "x") }),
  fc.record({ path, op: fc.constantFrom("lt", "gte"), value: fc.integer({ min: -3, max: 3 }) }),
  fc.record({ path, op: fc.constant("exists"), value: fc.boolean() }),
  fc.record({ path, op: fc.constant("in"), value: fc.array(scalar, { maxLength: 3 }) }),
);
const filters = fc.array(
  fc.oneof(leaf, fc.record({ anyOf: fc.array(leaf, { minLength: 2, maxLength: 2 }) })),
  { maxLength: 2 },
);
const sort = fc.array(
  fc.record(
    {
      path: fc.constantFrom("/a", "/b", "/tags", "count"),
      order: fc.constantFrom("asc", "desc"),
      measure: fc.constant("length"),
    },
    { requiredKeys: ["path"] },
  ),
  { minLength: 1, maxLength: 2 },
);
const aggregate = fc.record(
  {
    groupBy: fc.constantFrom("/a", "/b", "/tags"),
    unwind: fc.boolean(),
    metrics: fc.constantFrom([{ op: "count" }], [{ op: "count" }, { op: "sum", path: "/b" }]),
  },
  { requiredKeys: ["groupBy"] },
);
const view = fc.record(
  {
    filters,
    sort,
    aggregate,
    fields: fc.constantFrom(["/a"], ["/a", "/tags"], ["/b"], ["/a", "/zz"]),
    pageSize: fc.integer({ min: 1, max: 7 }),
  },
  { requiredKeys: ["pageSize"] },
);
/** Where the items sit: an array at /rows, objectMode entries of an object, or jsonPath rows. */
const shape = fc.constantFrom("array", "entries", "jsonPath");
const inlineBytes = fc.constantFrom(DEFAULT_LIMITS.inlineBytes, 4_096);

function documentOf(list: Json[], kind: string): Json {
  if (kind !== "entries") return { rows: list };
  const object: Record<string, Json> = {};
  list.forEach((entry, index) => {
    object[`k${(index * 7919) % 1000}-${index}`] = entry;
  });
  return { rows: object };
}

/** Rewrites a view's paths for its shape (entries read items under /value). */
function requestOf(input: Record<string, unknown>, kind: string): Record<string, unknown> {
  if (kind === "jsonPath") {
    const rebase = (path: string) => (path.startsWith("/") ? `/value${path}` : path);
    return { ...rewrite(input, rebase), jsonPath: "$.rows[*]" };
  }
  if (kind === "entries") {
    const rebase = (path: string) => (path.startsWith("/") ? `/value${path}` : path);
    return { ...rewrite(input, rebase), responsePath: "/rows", objectMode: "entries" };
  }
  return { ...input, responsePath: "/rows" };
}

function rewrite(input: Record<string, unknown>, rebase: (path: string) => string) {
  const json = JSON.stringify(input, (key, entry) =>
    (key === "path" || key === "groupBy") && typeof entry === "string" ? rebase(entry) : entry,
  );
  const out = JSON.parse(json) as Record<string, unknown>;
  if (Array.isArray(out.fields)) out.fields = (out.fields as string[]).map(rebase);
  return out;
}

function parse(input: Record<string, unknown>): QueryRequest | null {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  return parsed.success ? parsed.data : null;
}

/** Every page's text, following nextCursor (at most 80 pages). */
function pages(document: Json, request: QueryRequest, budget: number, cache?: ViewCache) {
  const context = createTestContext({
    limits: { ...DEFAULT_LIMITS, inlineBytes: budget },
    ...(cache === undefined ? {} : { viewCache: cache }),
  });
  const texts: string[] = [];
  let next: QueryRequest | null = request;
  while (next !== null && texts.length < 80) {
    const outcome = runQuery(document, next, context);
    // The text a sender sends: the one buildPage kept (with a cache, an array page's envelope
    // is written from the view's template), else a serialization; a kept text must be the
    // serialization byte for byte.
    const serialized = JSON.stringify(outcome.result);
    const kept = pageText(outcome.result);
    if (kept !== undefined) expect(kept.text).toBe(serialized);
    texts.push(kept?.text ?? serialized);
    const cursor = outcome.isError ? null : outcome.result.responseMeta?.nextCursor;
    next = typeof cursor === "string" ? { ...request, cursor } : null;
  }
  return texts;
}

describe("the view cache changes no answer (property)", () => {
  const roomy = createViewCache();
  const tight = createViewCache({ maxBytes: 3_000 });

  it("pages random views byte-identically with the cache on and off", () => {
    fc.assert(
      fc.property(
        items,
        fc.array(view, { minLength: 1, maxLength: 3 }),
        shape,
        inlineBytes,
        fc.boolean(),
        (list, inputs, kind, budget, small) => {
          const requests = inputs
            .map((input) => parse(requestOf(input as Record<string, unknown>, kind)))
            .filter((request): request is QueryRequest => request !== null);
          fc.pre(requests.length > 0);
          const document = documentOf(list, kind);
          const cache = small ? tight : roomy;
          const plain = requests.map((request) => pages(document, request, budget));
          // Every view of one document twice through one cache: the first run fills it, the
          // second answers from it, and no view is answered from another's entry.
          for (let round = 0; round < 2; round += 1) {
            requests.forEach((request, at) => {
              expect(pages(document, request, budget, cache)).toEqual(plain[at]);
            });
          }
        },
      ),
      { numRuns: 250 },
    );
    expect(tight.bytes).toBeLessThanOrEqual(3_000);
  });

  it("answers the same through runQueryAsync when the cache is built in slices", async () => {
    await fc.assert(
      fc.asyncProperty(items, view, shape, async (list, input, kind) => {
        const request = parse(requestOf(input as Record<string, unknown>, kind));
        fc.pre(request !== null);
        const document = documentOf(list, kind);
        const cache = createViewCache();
        let clock = 0;
        const context = createTestContext({ viewCache: cache, now: () => (clock += 1) });
        const expected = runQuery(document, request as QueryRequest, createTestContext());
        const sliced = await runQueryAsync(document, request as QueryRequest, context, {
          sliceMs: 1,
          pause: async () => {},
        });
        expect(JSON.stringify(sliced.result)).toBe(JSON.stringify(expected.result));
      }),
      { numRuns: 100 },
    );
  });
});
