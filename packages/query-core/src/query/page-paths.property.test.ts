import { DEFAULT_LIMITS, type QueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { stringifyExact } from "../exact/stringify-exact.js";
import { createViewCache, type ViewCache } from "../views/view-cache.js";
import { pageText, withElementByElementPages } from "./page-result.js";
import { runQuery } from "./run-query.js";
import { createRequest, createTestContext } from "./test-support/query-harness.js";

// Four ways to page one view by nextCursor must give the same bytes: without and with a view
// cache, each on the element-by-element path pages took before (every candidate measured alone,
// the answer serialized by its sender) and on the path that serializes the page once (pageText).
// Every item that matches comes back once, in order, and every page fits inlineBytes.

const text = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("é", "😀", "\u2028", '"\\', "\u0000bounded-mcp page slot\u0000"),
  fc.constantFrom("x".repeat(300), "ü".repeat(150)),
);
const number = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom("12345678901234567890", "1e400", "-0", "0.10000000000000000001"),
);
const item = fc.record(
  { g: fc.integer({ min: 0, max: 2 }), s: text, n: number, t: fc.array(text, { maxLength: 2 }) },
  { requiredKeys: ["g"] },
);
/** The document as the adapter parses it (exact literals kept); item k is its index. */
const documentText = fc
  .array(item, { maxLength: 45 })
  .map((items) =>
    JSON.stringify(items.map((entry, k) => ({ k, ...entry }))).replace(
      /"n":"([-0-9.e]+)"/g,
      (_whole, literal: string) => `"n":${literal}`,
    ),
  );
const view = fc.record(
  {
    pageSize: fc.integer({ min: 1, max: 9 }),
    fields: fc.constantFrom(["k"], ["k", "s"], ["k", "n", "t"], ["k", "/s", "g"]),
    filters: fc.constantFrom(
      [{ path: "/g", op: "ne", value: 1 }],
      [{ path: "/g", op: "in", value: [0, 1] }],
      [{ path: "/s", op: "exists", value: true }],
    ),
  },
  { requiredKeys: [] },
);

/** Does item `entry` match the view's filters (the three the generator writes)? */
function matches(entry: Record<string, unknown>, input: Record<string, unknown>): boolean {
  const filters = input.filters as Array<{ path: string; op: string; value: unknown }> | undefined;
  if (filters === undefined) return true;
  const [filter] = filters;
  if (filter?.op === "ne") return entry.g !== 1;
  if (filter?.op === "in") return entry.g === 0 || entry.g === 1;
  return entry.s !== undefined;
}

interface Paged {
  texts: string[];
  /** What `keyOf` read on each returned element, in order. */
  keys: Array<number | string>;
  /** The code of the error envelope that ended the paging, or null when the pages ran out. */
  error: string | null;
}

function pageAll(
  document: unknown,
  request: QueryRequest,
  inlineBytes: number,
  cache: ViewCache | undefined,
  single: boolean,
  keyOf: (element: Record<string, unknown> | undefined) => number | string = (element) =>
    typeof element?.k === "number" ? element.k : -1,
): Paged {
  const context = createTestContext({
    limits: { ...DEFAULT_LIMITS, inlineBytes },
    ...(cache === undefined ? {} : { viewCache: cache }),
  });
  const texts: string[] = [];
  const keys: Array<number | string> = [];
  let error: string | null = null;
  let next: QueryRequest | null = request;
  while (next !== null) {
    const asked: QueryRequest = next;
    const outcome = single
      ? runQuery(document, asked, context)
      : withElementByElementPages(() => runQuery(document, asked, context));
    const written = stringifyExact(outcome.result)?.text ?? "";
    const kept = pageText(outcome.result);
    if (!single) expect(kept).toBeUndefined();
    if (kept !== undefined) expect(kept.text).toBe(written);
    texts.push(written);
    if (outcome.isError) {
      error = (outcome.result.response as { error: { code: string } }).error.code;
      break;
    }
    const meta = outcome.result.responseMeta;
    expect(Buffer.byteLength(written)).toBeLessThanOrEqual(inlineBytes);
    expect(meta.serializedBytes).toBe(Buffer.byteLength(written));
    const page = outcome.result.response as Array<Record<string, unknown> | undefined>;
    for (const element of page) keys.push(keyOf(element));
    expect(texts.length).toBeLessThan(200);
    next = meta.nextCursor === null ? null : { ...request, cursor: meta.nextCursor };
  }
  return { texts, keys, error };
}

describe("one serialization per page against the element-by-element path (property)", () => {
  const cache = createViewCache();
  it("pages every view byte-identically four ways, every item once, in order, within budget", () => {
    fc.assert(
      fc.property(
        documentText,
        view,
        fc.constantFrom(700, 1_200, 3_000, DEFAULT_LIMITS.inlineBytes),
        (written, input, inlineBytes) => {
          const document = parseJsonExact(written);
          const request = createRequest(input);
          const reference = pageAll(document, request, inlineBytes, undefined, false);
          expect(pageAll(document, request, inlineBytes, undefined, true)).toEqual(reference);
          expect(pageAll(document, request, inlineBytes, cache, true)).toEqual(reference);
          expect(pageAll(document, request, inlineBytes, cache, false)).toEqual(reference);
          // A budget too small for the page's own metadata (a tiny inlineBytes beside the
          // field warnings) is refused with INVALID_RESPONSE_CONTROLS, alike on all four paths.
          if (reference.error !== null) {
            expect(reference.error).toBe("INVALID_RESPONSE_CONTROLS");
            return;
          }
          // Every matching item once, in order (a compacted item may lose its k: -1 then).
          const items = JSON.parse(written) as Array<Record<string, unknown>>;
          const expected = items.filter((entry) => matches(entry, input)).map((entry) => entry.k);
          if (reference.keys.every((key) => key !== -1)) expect(reference.keys).toEqual(expected);
          else expect(reference.keys.length).toBe(expected.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

const entriesView = fc.record(
  {
    pageSize: fc.integer({ min: 1, max: 9 }),
    fields: fc.constantFrom(["/key"], ["/key", "/value/s"], ["/key", "/value/n", "/value/t"]),
    filters: fc.constantFrom(
      [{ path: "/value/g", op: "ne", value: 1 }],
      [{ path: "/value/s", op: "exists", value: true }],
    ),
    sort: fc.constant([{ path: "/value/k", order: "desc" }]),
  },
  { requiredKeys: [] },
);

describe("entries pages of a keyed object (property)", () => {
  const cache = createViewCache();
  it("pages objectMode entries the same three ways, every matching entry once, in order, within budget", () => {
    fc.assert(
      fc.property(
        documentText,
        entriesView,
        fc.constantFrom(700, 1_200, 3_000, DEFAULT_LIMITS.inlineBytes),
        (written, view, inlineBytes) => {
          const items = parseJsonExact(written) as unknown[];
          const name = (k: number) => `e${String(k).padStart(2, "0")}`;
          const document = { entries: Object.fromEntries(items.map((item, k) => [name(k), item])) };
          const input = { ...view, responsePath: "/entries", objectMode: "entries" };
          const request = createRequest(input);
          // A projected entry names its key under "/key"; without fields the row is {key, value}.
          const keyOf = (element: Record<string, unknown> | undefined) => {
            const key = view.fields === undefined ? element?.key : element?.["/key"];
            return typeof key === "string" ? key : -1;
          };
          const reference = pageAll(document, request, inlineBytes, undefined, false, keyOf);
          expect(pageAll(document, request, inlineBytes, undefined, true, keyOf)).toEqual(
            reference,
          );
          expect(pageAll(document, request, inlineBytes, cache, true, keyOf)).toEqual(reference);
          if (reference.error !== null) {
            expect(reference.error).toBe("INVALID_RESPONSE_CONTROLS");
            return;
          }
          const plain = JSON.parse(written) as Array<Record<string, unknown>>;
          const filters = view.filters as Array<{ op: string }> | undefined;
          const kept = plain.filter((entry) =>
            filters === undefined
              ? true
              : filters[0]?.op === "ne"
                ? entry.g !== 1
                : entry.s !== undefined,
          );
          const ordered = view.sort === undefined ? kept : [...kept].reverse();
          const expected = ordered.map((entry) => name(entry.k as number));
          if (reference.keys.every((key) => key !== -1)) expect(reference.keys).toEqual(expected);
          else expect(reference.keys.length).toBe(expected.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("a page of large items", () => {
  /** Items whose `body` (3,000 bytes) counts how often it is read, i.e. serialized. */
  function countedItems(count: number) {
    let reads = 0;
    const items = Array.from({ length: count }, (_, k) => {
      const item: Record<string, unknown> = { k };
      Object.defineProperty(item, "body", {
        enumerable: true,
        get: () => {
          reads += 1;
          return "b".repeat(3_000);
        },
      });
      return item;
    });
    return { items, reads: () => reads };
  }

  it("serializes no more items than the element-by-element cut does (one beyond the budget)", () => {
    const context = createTestContext({ limits: { ...DEFAULT_LIMITS, inlineBytes: 8_000 } });
    const request = createRequest({ pageSize: 20 });
    const single = countedItems(20);
    const once = runQuery(single.items, request, context);
    const each = countedItems(20);
    const before = withElementByElementPages(() => runQuery(each.items, request, context));
    expect(stringifyExact(once.result)?.text).toBe(stringifyExact(before.result)?.text);
    expect(once.result.responseMeta).toMatchObject({
      returnedCount: 2,
      truncationReason: "size_limit",
    });
    expect(single.reads()).toBe(each.reads());
    expect(single.reads()).toBeLessThan(10);
  });
});
