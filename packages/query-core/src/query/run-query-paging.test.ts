import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { createNodes, query } from "./test-support/query-harness.js";

describe("runQuery: pages (SPEC.md §4.7, §5)", () => {
  it("follows nextCursor to the end with honest counts", () => {
    const document = { nodes: createNodes(5) };
    const pages: unknown[] = [];
    let cursor: string | undefined;
    do {
      const call = query(document, {
        responsePath: "/nodes",
        fields: ["id"],
        pageSize: 2,
        ...(cursor ? { cursor } : {}),
      });
      const meta = call.result.responseMeta;
      pages.push([
        call.result.response.map((node: { id: string }) => node.id),
        meta.returnedCount,
        meta.totalCount,
        meta.remainingCount,
        meta.truncationReason,
        meta.complete,
      ]);
      cursor = meta.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(pages).toEqual([
      [["node-0", "node-1"], 2, 5, 3, "page_limit", false],
      [["node-2", "node-3"], 2, 5, 1, "page_limit", false],
      [["node-4"], 1, 5, 0, null, true],
    ]);
  });

  it("ends a page at the byte budget before pageSize (size_limit)", () => {
    const document = {
      rows: Array.from({ length: 10 }, (_, index) => ({ index, body: "x".repeat(1000) })),
    };
    const call = query(
      document,
      { responsePath: "/rows", pageSize: 10 },
      { limits: { ...defaults(), inlineBytes: 4000 } },
    );
    expect({
      bytes: call.bytes <= 4000,
      returned: call.result.responseMeta.returnedCount,
      reason: call.result.responseMeta.truncationReason,
      remaining: call.result.responseMeta.remainingCount,
    }).toEqual({ bytes: true, returned: 3, reason: "size_limit", remaining: 7 });
  });

  it("holds the largest n that fits: one more item would not fit", () => {
    const document = {
      rows: Array.from({ length: 10 }, (_, index) => ({ index, body: "x".repeat(1000) })),
    };
    const limits = { ...defaults(), inlineBytes: 4000 };
    const call = query(document, { responsePath: "/rows", pageSize: 10 }, { limits });
    const withOneMore = call.bytes + JSON.stringify(document.rows[3]).length + 1;
    expect(withOneMore).toBeGreaterThan(4000);
  });

  it("returns an element whole when it fits beside the metadata, even with no room for a compaction warning", () => {
    const document = { rows: [{ body: "x".repeat(200) }, { body: "y" }] };
    const request = { responsePath: "/rows", pageSize: 1 };
    const whole = query(document, request);
    // Room for the whole element and a longer cursor, far less than the element would need beside
    // the ~300-character compaction warning as well.
    const limits = { ...defaults(), inlineBytes: whole.bytes + 64 };
    const call = query(document, request, { limits });
    expect({
      response: call.result.response,
      reason: call.result.responseMeta.truncationReason,
      warning: call.result.responseMeta.warning,
    }).toEqual({ response: [document.rows[0]], reason: "page_limit", warning: null });
  });

  it("compacts one oversized item, counts it and advances (item_size_limit)", () => {
    const document = { rows: [{ id: 1, body: "x".repeat(40 * 1024) }, { id: 2 }] };
    const call = query(document, { responsePath: "/rows" });
    expect({
      ...call.result.responseMeta,
      nextCursor: typeof call.result.responseMeta.nextCursor,
      serializedBytes: "measured",
    }).toMatchInlineSnapshot(`
      {
        "complete": false,
        "contractVersion": 3,
        "nextCursor": "string",
        "pageUnit": "items",
        "remainingCount": 1,
        "returnedCount": 1,
        "serializedBytes": "measured",
        "totalCount": 2,
        "truncated": true,
        "truncationReason": "item_size_limit",
        "warning": "The element at "/rows/0" is larger than what the 32768-byte result budget leaves beside the page metadata, so it was compacted (omissions marked in place). Query it with a narrower responsePath ("/rows/0"), fields, or textSearch.",
      }
    `);
    expect(call.result.response[0].id).toBe(1);
    const next = query(document, {
      responsePath: "/rows",
      cursor: call.result.responseMeta.nextCursor,
    });
    expect(next.result.response).toEqual([{ id: 2 }]);
  });

  it("compacts a scalar that does not fit (scalar_size_limit)", () => {
    const call = query({ text: "y".repeat(50_000) }, { responsePath: "/text" });
    expect([
      call.result.responseMeta.truncationReason,
      call.result.responseMeta.truncated,
      typeof call.result.response,
      call.result.responseMeta.warning,
    ]).toMatchInlineSnapshot(`
      [
        "scalar_size_limit",
        true,
        "string",
        "The value at "/text" is larger than the 32768-byte result budget, so it was compacted (omissions marked in place). Narrow responsePath, or use textSearch to find the part you need.",
      ]
    `);
  });

  it("pages an object by entries in key order", () => {
    const call = query({ record: { b: 1, a: 2, c: 3 } }, { responsePath: "/record", pageSize: 2 });
    expect([
      call.result.response,
      call.result.responseMeta.pageUnit,
      call.result.responseMeta.totalCount,
    ]).toEqual([{ b: 1, a: 2 }, "entries", 3]);
  });

  it("rejects a cursor past the end, another view's cursor and a forged one", () => {
    const document = { rows: [1, 2, 3] };
    const first = query(document, { responsePath: "/rows", pageSize: 1 });
    const cursor = first.result.responseMeta.nextCursor;
    const reasons = [
      query({ rows: [] }, { responsePath: "/rows", pageSize: 1, cursor }),
      query(document, { responsePath: "/rows", pageSize: 2, cursor }),
      query(document, { responsePath: "/rows", pageSize: 1, cursor: `${cursor.slice(0, -2)}AA` }),
      query(document, { responsePath: "/rows", pageSize: 1, cursor: "!" }),
    ].map((call) => [call.result.response.error.code, call.result.response.error.details.reason]);
    expect(reasons).toEqual([
      ["INVALID_RESPONSE_CURSOR", "past_end"],
      ["INVALID_RESPONSE_CURSOR", "mismatch"],
      ["INVALID_RESPONSE_CURSOR", "mismatch"],
      ["INVALID_RESPONSE_CURSOR", "malformed"],
    ]);
  });

  it("accepts a cursor when only omitted defaults differ", () => {
    const document = { rows: [1, 2, 3] };
    const first = query(document, {
      responsePath: "/rows",
      pageSize: 20,
      filters: [{ path: "", op: "gt", value: 0 }],
    });
    expect(first.result.responseMeta.nextCursor).toBeNull();
    const paged = query(document, { pageSize: 1, responsePath: "/rows" });
    const same = query(document, {
      pageSize: 1,
      responsePath: "/rows",
      cursor: paged.result.responseMeta.nextCursor,
    });
    expect(same.result.response).toEqual([2]);
  });
});

function defaults() {
  return { ...DEFAULT_LIMITS };
}
