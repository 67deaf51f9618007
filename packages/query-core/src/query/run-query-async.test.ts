import { describe, expect, it } from "vitest";
import { encodeCursor } from "../cursor/cursor-codec.js";
import { CHUNK_ITEMS } from "../schedule/work.js";
import { createViewCache } from "../views/view-cache.js";
import { runQuery, runQueryAsync } from "./run-query.js";
import {
  ARTIFACT_ID,
  createRequest,
  createTestContext,
  TEST_KEY_RING,
} from "./test-support/query-harness.js";
import { computeViewHash } from "./view-hash.js";

// SPEC.md §9 rule 6: runQueryAsync answers exactly what runQuery answers, and pauses inside the
// long loops (filters, sort, aggregate, entries, textSearch) so other callers get their turn.

const ITEMS = CHUNK_ITEMS * 40;
const items = Array.from({ length: ITEMS }, (_, index) => ({
  id: `item-${index}`,
  type: ["a", "b", "c"][index % 3],
  views: (index * 7919) % 1000,
  tags: index % 2 === 0 ? ["x", "y"] : ["y"],
}));
const keyed = Object.fromEntries(items.slice(0, CHUNK_ITEMS * 10).map((item) => [item.id, item]));

/** One virtual millisecond per clock read: slices end after a count of steps, not of real time. */
function steppingClock(): () => number {
  let time = 0;
  return () => {
    time += 1;
    return time;
  };
}

const LONG_QUERIES: [string, unknown, Record<string, unknown>][] = [
  [
    "filters",
    { items },
    { responsePath: "/items", filters: [{ path: "/type", value: "b" }], fields: ["id"] },
  ],
  [
    "anyOf and nin",
    { items },
    {
      responsePath: "/items",
      filters: [
        {
          anyOf: [
            { path: "/views", op: "gt", value: 990 },
            { path: "/id", op: "icontains", value: "-77" },
          ],
        },
        { path: "/type", op: "nin", value: ["c"] },
      ],
    },
  ],
  [
    "sort",
    { items },
    { responsePath: "/items", sort: [{ path: "/views", order: "desc" }], pageSize: 5 },
  ],
  [
    "aggregate",
    { items },
    {
      responsePath: "/items",
      aggregate: {
        groupBy: "/tags",
        unwind: true,
        metrics: [{ op: "count" }, { op: "avg", path: "/views" }],
      },
    },
  ],
  [
    "objectMode entries",
    { keyed },
    {
      responsePath: "/keyed",
      objectMode: "entries",
      filters: [{ path: "/value/views", op: "lt", value: 3 }],
      sort: [{ path: "/key" }],
    },
  ],
  ["textSearch", { items }, { responsePath: "/items", textSearch: { query: "item-8191" } }],
];

/** A sorted request with a cursor half-way down, so the whole view is sorted (not a top-k). */
function deepSortedPage(): Record<string, unknown> {
  const input = {
    responsePath: "/items",
    sort: [{ path: "/views" }, { path: "/id", order: "desc" }],
  };
  const viewHash = computeViewHash(createRequest(input), "");
  const cursor = encodeCursor(TEST_KEY_RING, {
    artifactId: ARTIFACT_ID,
    scopeHash: "scope-a",
    viewHash,
    offset: ITEMS / 2,
  });
  return { ...input, cursor };
}

describe("runQueryAsync", () => {
  it("answers a deep page of a sorted view (a full sort in steps) exactly like runQuery", async () => {
    const request = createRequest(deepSortedPage());
    const expected = runQuery({ items }, request, createTestContext());
    let pauses = 0;
    const outcome = await runQueryAsync(
      { items },
      request,
      createTestContext({ now: steppingClock() }),
      {
        sliceMs: 5,
        pause: async () => {
          pauses += 1;
        },
      },
    );
    expect(outcome).toEqual(expected);
    expect(outcome.result).toMatchObject({
      responseMeta: { totalCount: ITEMS, returnedCount: 20 },
    });
    expect(pauses).toBeGreaterThan(ITEMS / CHUNK_ITEMS / 5);
  });

  it.each(LONG_QUERIES)(
    "answers %s exactly like runQuery, pausing in between",
    async (_name, document, input) => {
      const request = createRequest(input);
      const expected = runQuery(document, request, createTestContext());
      let pauses = 0;
      const outcome = await runQueryAsync(
        document,
        request,
        createTestContext({ now: steppingClock() }),
        {
          sliceMs: 5,
          pause: async () => {
            pauses += 1;
          },
        },
      );
      expect(outcome).toEqual(expected);
      expect(outcome.isError).toBe(false);
      expect(pauses).toBeGreaterThan(0);
    },
  );

  it("answers a cheap query of another caller while a long one is paused", async () => {
    const order: string[] = [];
    const now = steppingClock();
    const long = runQueryAsync(
      { items },
      createRequest({ responsePath: "/items", aggregate: { groupBy: "/type" } }),
      createTestContext({ now }),
      { sliceMs: 5 },
    ).then(() => order.push("long"));
    const cheap = new Promise((resolve) => setImmediate(resolve))
      .then(() =>
        runQueryAsync(
          { small: [1, 2, 3] },
          createRequest({ responsePath: "/small" }),
          createTestContext({ now }),
        ),
      )
      .then((outcome) => {
        order.push("cheap");
        expect(outcome.result).toMatchObject({ response: [1, 2, 3] });
      });
    await Promise.all([long, cheap]);
    expect(order).toEqual(["cheap", "long"]);
  });

  it("never pauses a query whose work fits one slice", async () => {
    let pauses = 0;
    await runQueryAsync(
      { items: items.slice(0, 10) },
      createRequest({ responsePath: "/items", sort: [{ path: "/views" }] }),
      createTestContext({ now: steppingClock() }),
      {
        pause: async () => {
          pauses += 1;
        },
      },
    );
    expect(pauses).toBe(0);
  });

  it("pauses while it grows a cached sorted view (the heap over kept keys reads no item)", async () => {
    const viewCache = createViewCache();
    const input = { responsePath: "/items", sort: [{ path: "/views", order: "desc" }] };
    const first = runQuery({ items }, createRequest(input), createTestContext({ viewCache }));
    const cursor = (first.result as { responseMeta: { nextCursor: string } }).responseMeta
      .nextCursor;
    const request = createRequest({ ...input, cursor });
    const expected = runQuery({ items }, request, createTestContext());
    let pauses = 0;
    const outcome = await runQueryAsync(
      { items },
      request,
      createTestContext({ now: steppingClock(), viewCache }),
      {
        sliceMs: 5,
        pause: async () => {
          pauses += 1;
        },
      },
    );
    expect(outcome).toEqual(expected);
    expect(pauses).toBeGreaterThan(ITEMS / CHUNK_ITEMS / 5);
  });

  it("answers an error result, never a rejection", async () => {
    const outcome = await runQueryAsync(
      { items },
      createRequest({ responsePath: "/nope" }),
      createTestContext(),
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.result).toMatchObject({
      response: { error: { code: "INVALID_RESPONSE_PATH" } },
    });
  });
});
