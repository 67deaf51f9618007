import { describe, expect, it } from "vitest";
import { createTestContext, query } from "../query/test-support/query-harness.js";
import { createViewCache, DEFAULT_VIEW_CACHE_BYTES } from "./view-cache.js";

describe("createViewCache", () => {
  it("keeps values per document and key, and counts their bytes", () => {
    const cache = createViewCache({ maxBytes: 1_000 });
    const first = {};
    const second = {};
    cache.set(first, "a", "one", 100);
    cache.set(second, "a", "two", 200);
    expect([cache.get(first, "a"), cache.get(second, "a"), cache.get(first, "b")]).toEqual([
      "one",
      "two",
      undefined,
    ]);
    expect([cache.bytes, cache.size, cache.maxBytes]).toEqual([300, 2, 1_000]);
  });

  it("evicts the least recently used entries first once over its byte budget", () => {
    const cache = createViewCache({ maxBytes: 300 });
    const document = {};
    cache.set(document, "a", 1, 100);
    cache.set(document, "b", 2, 100);
    cache.set(document, "c", 3, 100);
    cache.get(document, "a");
    cache.set(document, "d", 4, 100);
    expect(["a", "b", "c", "d"].map((key) => cache.get(document, key))).toEqual([
      1,
      undefined,
      3,
      4,
    ]);
    expect(cache.bytes).toBe(300);
  });

  it("replaces an entry and recounts it; keeps nothing larger than the whole budget", () => {
    const cache = createViewCache({ maxBytes: 300 });
    const document = {};
    cache.set(document, "a", 1, 100);
    cache.set(document, "a", 2, 250);
    expect([cache.get(document, "a"), cache.bytes, cache.size]).toEqual([2, 250, 1]);
    cache.set(document, "a", 3, 301);
    expect([cache.get(document, "a"), cache.bytes, cache.size]).toEqual([undefined, 0, 0]);
  });

  it("forgets every entry of one document and none of another", () => {
    const cache = createViewCache();
    const first = {};
    const second = {};
    cache.set(first, "a", 1, 10);
    cache.set(first, "b", 2, 10);
    cache.set(second, "a", 3, 10);
    cache.forget(first);
    expect([cache.get(first, "a"), cache.get(first, "b"), cache.get(second, "a")]).toEqual([
      undefined,
      undefined,
      3,
    ]);
    expect([cache.bytes, cache.size, cache.maxBytes]).toEqual([10, 1, DEFAULT_VIEW_CACHE_BYTES]);
  });

  it("keeps nothing with a budget of 0", () => {
    const cache = createViewCache({ maxBytes: 0 });
    cache.set({}, "a", 1, 1);
    expect(cache.size).toBe(0);
  });
});

/** Items whose properties count their reads, so a test sees which items a page touched. */
function countingItems(count: number): { items: Record<string, unknown>[]; reads: () => number } {
  let reads = 0;
  const items = Array.from({ length: count }, (_, index) => {
    const item: Record<string, unknown> = {};
    for (const [key, value] of Object.entries({
      id: `n${index}`,
      score: index % 97,
      odd: index % 2,
    })) {
      Object.defineProperty(item, key, {
        enumerable: true,
        get: () => {
          reads += 1;
          return value;
        },
      });
    }
    return item;
  });
  return { items, reads: () => reads };
}

describe("runQuery with a view cache", () => {
  const pageThrough = (document: unknown, input: Record<string, unknown>, cache: unknown) => {
    const context = cache === undefined ? {} : { viewCache: cache as never };
    const first = query(document, input, context);
    const second = query(
      document,
      { ...input, cursor: first.result.responseMeta.nextCursor },
      context,
    );
    return { first, second };
  };

  it("answers a later page of a filtered and sorted view without reading items off the page", () => {
    const { items, reads } = countingItems(1_000);
    const cache = createViewCache();
    const input = {
      filters: [{ path: "/odd", value: 1 }],
      sort: [{ path: "/score", order: "desc" }],
      fields: ["id"],
      pageSize: 10,
    };
    const first = query(items, input, { viewCache: cache });
    const before = reads();
    const second = query(
      items,
      { ...input, cursor: first.result.responseMeta.nextCursor },
      { viewCache: cache },
    );
    // The page itself: projecting `id` on its 10 items reads each once (fieldsResolved counts
    // the projected records; the check that the fields resolve somewhere was kept with the view).
    expect(reads() - before).toBe(10);
    expect(second.result.responseMeta.totalCount).toBe(500);
    expect(second.result).toEqual(pageThrough(items, input, undefined).second.result);
    // The view's stages and its plan (compiled paths), each kept once.
    expect(cache.size).toBe(2);
  });

  it("replays a kept plan's notes on a later page: inferred collection, normalized fields, warning", () => {
    const document = {
      nodes: Array.from({ length: 30 }, (_, index) => ({ id: `n${index}`, odd: index % 2 })),
    };
    const input = {
      fields: ["/nodes/id"],
      filters: [{ path: "/nodes/odd", value: 1 }],
      pageSize: 4,
    };
    const cache = createViewCache();
    const cached = pageThrough(document, input, cache);
    const plain = pageThrough(document, input, undefined);
    expect(cached.second.result).toEqual(plain.second.result);
    const meta = cached.second.result.responseMeta;
    expect([meta.inferredResponsePath, meta.normalizedFields, meta.totalCount]).toEqual([
      "/nodes",
      { "/nodes/id": "/id", "/nodes/odd": "/odd" },
      15,
    ]);
    expect(meta.warning.match(/repeated the collection prefix/g)).toHaveLength(1);
    expect(cache.size).toBe(2);
  });

  it("answers a later page of objectMode entries without reading the object again", () => {
    const object: Record<string, unknown> = {};
    for (let index = 0; index < 2_000; index += 1) object[`k${index}`] = { index };
    let reads = 0;
    const counted = new Proxy(object, {
      get(target, key, receiver) {
        reads += 1;
        return Reflect.get(target, key, receiver);
      },
    });
    const document = { keyed: counted };
    const cache = createViewCache();
    const input = { responsePath: "/keyed", objectMode: "entries", pageSize: 5 };
    const first = query(document, input, { viewCache: cache });
    expect(reads).toBeGreaterThanOrEqual(2_000);
    const before = reads;
    const second = query(
      document,
      { ...input, cursor: first.result.responseMeta.nextCursor },
      { viewCache: cache },
    );
    expect(reads - before).toBeLessThan(50);
    expect(second.result.response.map((row: { key: string }) => row.key)).toEqual([
      "k5",
      "k6",
      "k7",
      "k8",
      "k9",
    ]);
    expect(second.result.responseMeta.totalCount).toBe(2_000);
  });

  it("keeps aggregate rows and their order, and answers as without it", () => {
    const document = Array.from({ length: 200 }, (_, index) => ({ group: `g${index % 37}` }));
    const cache = createViewCache();
    const input = {
      aggregate: { groupBy: "/group" },
      sort: [{ path: "/group", order: "desc" }],
      pageSize: 3,
    };
    const cached = pageThrough(document, input, cache);
    const plain = pageThrough(document, input, undefined);
    expect(cached.second.result).toEqual(plain.second.result);
    expect(cached.second.result.responseMeta.totalCount).toBe(37);
    expect(cache.bytes).toBeGreaterThan(0);
  });

  it("keeps no textSearch view (its scan may stop at the work limit)", () => {
    const cache = createViewCache();
    const document = { lines: Array.from({ length: 50 }, (_, index) => `line ${index}`) };
    query(document, { textSearch: { query: "line" }, pageSize: 2 }, { viewCache: cache });
    expect(cache.size).toBe(0);
  });

  it("keeps nothing for a plain page or a scalar document", () => {
    const cache = createViewCache();
    query([1, 2, 3], { pageSize: 1 }, { viewCache: cache });
    query("text", {}, { viewCache: cache });
    expect(cache.size).toBe(0);
    expect(createTestContext({ viewCache: cache }).viewCache).toBe(cache);
  });
});
