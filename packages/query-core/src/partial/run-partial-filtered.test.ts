import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { runQuery } from "../query/run-query.js";
import { createRequest, createTestContext } from "../query/test-support/query-harness.js";
import { materializeItems, pathTreeOf } from "./materialize-items.js";
import { runPartialQuery } from "./run-partial-query.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);

const nodes = Array.from({ length: 30 }, (_, index) => ({
  id: `n${index}`,
  name: index % 4 === 0 ? `HTTP Request ${index}` : `Set ${index}`,
  type: index % 4 === 0 ? "http" : "set",
  disabled: index % 8 === 4,
  parameters: { url: index % 4 === 0 ? `https://x.test/${index}` : undefined, other: [index] },
  tags: ["Alpha", `t${index % 3}`],
}));
const documentText = JSON.stringify({ data: { items: nodes } }, null, 2);

function both(input: Record<string, unknown>, text = documentText) {
  const request = createRequest(input);
  const context = createTestContext({ responseRoot: "/data/items" });
  return {
    partial: runPartialQuery(bytesOf(text), request, context),
    full: runQuery(parseJsonExact(text), request, context),
  };
}

describe("runPartialQuery with fields and filters", () => {
  it("answers a filtered, projected page from the bytes with honest counts", () => {
    const { partial, full } = both({
      filters: [
        { path: "/type", value: "http" },
        { path: "/disabled", value: false },
      ],
      fields: ["id", "name", "/parameters/url"],
      pageSize: 2,
    });
    expect(partial).toEqual(full);
    expect(partial).toMatchInlineSnapshot(`
      {
        "isError": false,
        "result": {
          "artifactId": "art_0123456789abcdefghij",
          "response": [
            {
              "/parameters/url": "https://x.test/0",
              "id": "n0",
              "name": "HTTP Request 0",
            },
            {
              "/parameters/url": "https://x.test/8",
              "id": "n8",
              "name": "HTTP Request 8",
            },
          ],
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "fieldsResolved": {
              "/parameters/url": 2,
              "id": 2,
              "name": 2,
            },
            "filtersApplied": [
              {
                "matched": 8,
                "op": "eq",
                "path": "/type",
                "resolvedOn": 30,
              },
              {
                "matched": 26,
                "op": "eq",
                "path": "/disabled",
                "resolvedOn": 30,
              },
            ],
            "nextCursor": "AQR0ZXN0ArQ9RUzWI8IaLeCyKgrKIRQ",
            "pageUnit": "items",
            "remainingCount": 2,
            "returnedCount": 2,
            "serializedBytes": 676,
            "totalCount": 4,
            "truncated": true,
            "truncationReason": "page_limit",
            "warning": null,
          },
          "responsePath": "/data/items",
        },
      }
    `);
  });

  it("pages whole matched items when no fields project them, and follows the cursor", () => {
    const first = both({ filters: [{ path: "/tags", op: "icontains", value: "T2" }], pageSize: 3 });
    expect(first.partial).toEqual(first.full);
    const cursor = (first.full.result as { responseMeta: { nextCursor: string } }).responseMeta
      .nextCursor;
    const second = both({
      filters: [{ path: "/tags", op: "icontains", value: "T2" }],
      pageSize: 3,
      cursor,
    });
    expect(second.partial).toEqual(second.full);
    expect(second.partial?.result).toMatchObject({
      response: [{ id: "n11" }, { id: "n14" }, { id: "n17" }],
      responseMeta: { totalCount: 10, returnedCount: 3 },
    });
  });

  it("compares inexact literals by their exact value, as runQuery on parseJsonExact does", () => {
    const text =
      '[{"n": 12345678901234567891, "k": "a"}, {"n": 12345678901234567890, "k": "b"}, {"n": 1e400, "k": "c"}]';
    for (const filters of [
      [{ path: "/n", op: "gt", value: 12345678901234567000 }],
      [{ path: "/n", op: "eq", value: 12345678901234567000 }],
      [{ path: "/n", op: "ne", value: 1 }],
    ]) {
      const request = createRequest({ filters, fields: ["k", "n"] });
      const context = createTestContext();
      const partial = runPartialQuery(bytesOf(text), request, context);
      expect(partial).toBeDefined();
      expect(partial).toEqual(runQuery(parseJsonExact(text), request, context));
    }
  });

  it("matches a missing value only with exists false, for ne and nin too", () => {
    for (const filter of [
      { path: "/parameters/url", op: "ne", value: "x" },
      { path: "/parameters/url", op: "nin", value: ["x"] },
      { path: "/parameters/url", op: "exists", value: false },
    ]) {
      const { partial, full } = both({ filters: [filter], fields: ["id"], pageSize: 50 });
      expect(partial).toEqual(full);
    }
    expect(
      both({ filters: [{ path: "/parameters/url", op: "exists", value: false }], fields: ["id"] })
        .partial?.result,
    ).toMatchObject({ responseMeta: { totalCount: 22 } });
  });

  it("reads keys as JSON.parse does: escapes, the last duplicate, __proto__ as data", () => {
    const text =
      '[{"\\u0074ype": "http", "type": "set", "__proto__": {"a": 1}}, {"type": "http", "__proto__": {"a": 2}}]';
    const { partial, full } = both(
      {
        responsePath: "",
        filters: [{ path: "/type", value: "http" }],
        fields: ["/__proto__/a"],
      },
      text,
    );
    expect(partial).toEqual(full);
    expect(partial?.result).toMatchObject({
      response: [{ "/__proto__/a": 2 }],
      responseMeta: { totalCount: 1 },
    });
  });

  it("declines before scanning what it does not answer, and after it when a path resolves nowhere", () => {
    const context = createTestContext({ responseRoot: "/data/items" });
    const declined = [
      { filters: [{ path: "/type", value: "http" }], sort: [{ path: "/id" }] },
      { filters: [{ path: "/type", value: "http" }], aggregate: { groupBy: "/type" } },
      { responsePath: "/data", fields: ["id"] },
      { responsePath: "/data", objectMode: "entries", fields: ["/value"] },
      { jsonPath: "$.data.items[*]", fields: ["id"] },
      // Resolve on no item: runQuery's error or suggestion names the items' own keys.
      { filters: [{ path: "/typo", value: 1 }] },
      { fields: ["Name"] },
    ];
    for (const input of declined) {
      expect(runPartialQuery(bytesOf(documentText), createRequest(input), context)).toBeUndefined();
    }
    const text = createTestContext({ mediaType: "text/plain", responseRoot: "/lines" });
    expect(
      runPartialQuery(bytesOf('{"lines":["a"]}'), createRequest({ fields: ["a"] }), text),
    ).toBeUndefined();
  });
});

describe("runPartialQuery with fields and filters, keys outside UTF-8", () => {
  // Built at run time: a lone surrogate in a source literal would not survive the transform.
  const lone = String.fromCharCode(0xd800);
  const text = `[{"\\ud800": 1, "\uFFFD": 2}, {"\uFFFD": 3}]`;

  it("matches a key with a lone surrogate only through its escape, never a raw U+FFFD key", () => {
    for (const filters of [
      [{ path: `/${lone}`, op: "exists", value: true }],
      [{ path: "/\uFFFD", op: "gte", value: 2 }],
    ]) {
      const request = createRequest({ filters });
      const context = createTestContext();
      const partial = runPartialQuery(bytesOf(text), request, context);
      expect(partial).toBeDefined();
      expect(partial).toEqual(runQuery(parseJsonExact(text), request, context));
    }
    const answer = runPartialQuery(
      bytesOf(text),
      createRequest({ filters: [{ path: `/${lone}`, op: "exists", value: true }] }),
      createTestContext(),
    );
    expect(answer?.result).toMatchObject({ responseMeta: { totalCount: 1 } });
    // The scan itself: the raw U+FFFD keys are not the lone surrogate's.
    const tree = pathTreeOf([{ tokens: [lone], filter: true }]);
    expect(materializeItems(bytesOf(text), [], tree, false)?.items).toEqual([{ [lone]: 1 }, {}]);
  });
});
