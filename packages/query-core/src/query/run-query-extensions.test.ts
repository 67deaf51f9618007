import { describe, expect, it } from "vitest";
import { runPartialQuery } from "../partial/run-partial-query.js";
import {
  ARTIFACT_ID,
  createRequest,
  createTestContext,
  query,
} from "./test-support/query-harness.js";
import { computeViewHash } from "./view-hash.js";

// SPEC.md §9, rule by rule, as whole envelopes.

const products = [
  { sku: "a1", category: "tools", price: 12, tags: ["steel", "Sale"], options: ["s", "m", "l"] },
  { sku: "b2", category: "garden", price: 5, tags: [], options: [] },
  { sku: "c3", category: "tools", price: "n/a", tags: ["steel"], options: ["x"] },
  { sku: "d4", price: 7, tags: ["wood", "steel", "wood"] },
  { sku: "e5", category: "tools", price: null, tags: ["SALE"], options: "none" },
];
const document = { products };

describe("runQuery: §9 rule 1, order of work", () => {
  it("filters, then sorts, then projects, then pages; totalCount counts the filtered items", () => {
    expect(
      query(document, {
        responsePath: "/products",
        filters: [{ path: "/tags", op: "icontains", value: "steel" }],
        sort: [{ path: "/sku", order: "desc" }],
        fields: ["sku"],
        pageSize: 2,
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "sku": "d4",
          },
          {
            "sku": "c3",
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "extensions": [
            "sort",
          ],
          "fieldsResolved": {
            "sku": 2,
          },
          "filtersApplied": [
            {
              "matched": 3,
              "op": "icontains",
              "path": "/tags",
              "resolvedOn": 5,
            },
          ],
          "nextCursor": "AQR0ZXN0Ag0Xx6-VrKxPDwmJO5nAjQI",
          "pageUnit": "items",
          "remainingCount": 1,
          "returnedCount": 2,
          "serializedBytes": 494,
          "totalCount": 3,
          "truncated": true,
          "truncationReason": "page_limit",
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });

  it("aggregates the filtered items; totalCount counts the rows", () => {
    expect(
      query(document, {
        responsePath: "/products",
        filters: [{ path: "/price", op: "exists" }],
        aggregate: { groupBy: "/category" },
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/category": "tools",
            "count": 3,
          },
          {
            "/category": "garden",
            "count": 1,
          },
        ],
        "responseMeta": {
          "aggregateSkipped": 1,
          "complete": true,
          "contractVersion": 3,
          "extensions": [
            "aggregate",
          ],
          "filtersApplied": [
            {
              "matched": 5,
              "op": "exists",
              "path": "/price",
              "resolvedOn": 5,
            },
          ],
          "nextCursor": null,
          "pageUnit": "rows",
          "remainingCount": 0,
          "returnedCount": 2,
          "serializedBytes": 492,
          "totalCount": 2,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });
});

describe("runQuery: §9 rule 2, sort order across types", () => {
  const mixed = {
    rows: [
      { id: 1, v: "b" },
      { id: 2, v: 10 },
      { id: 3, v: null },
      { id: 4, v: true },
      { id: 5, v: [1] },
      { id: 6 },
      { id: 7, v: -1 },
      { id: 8, v: "A" },
      { id: 9, v: false },
      { id: 10, v: { k: 1 } },
      { id: 11, v: 10 },
    ],
  };
  const ids = (order: "asc" | "desc", measure?: "length") =>
    query(mixed, {
      responsePath: "/rows",
      sort: [{ path: "/v", order, ...(measure && { measure }) }],
      pageSize: 20,
    }).result.response.map((row: { id: number }) => row.id);

  it("puts numbers before strings, booleans, then arrays and objects; missing and null last in both orders; ties keep document order", () => {
    expect({ asc: ids("asc"), desc: ids("desc") }).toEqual({
      asc: [7, 2, 11, 8, 1, 9, 4, 5, 10, 3, 6],
      desc: [10, 5, 4, 9, 1, 8, 2, 11, 7, 3, 6],
    });
  });

  it("sorts by length under measure, values without a length last", () => {
    expect({ asc: ids("asc", "length"), desc: ids("desc", "length") }).toEqual({
      asc: [1, 5, 8, 10, 2, 3, 4, 6, 7, 9, 11],
      desc: [1, 5, 8, 10, 2, 3, 4, 6, 7, 9, 11],
    });
  });

  it("pages a sorted view by cursor, the first page from a bounded selection", () => {
    const rows = Array.from({ length: 50 }, (_, index) => ({ id: index, score: (index * 7) % 10 }));
    const input = { responsePath: "/rows", sort: [{ path: "/score", order: "desc" }], pageSize: 3 };
    const first = query({ rows }, input).result;
    const second = query({ rows }, { ...input, cursor: first.responseMeta.nextCursor }).result;
    expect({ first, second }).toMatchInlineSnapshot(`
      {
        "first": {
          "artifactId": "art_0123456789abcdefghij",
          "response": [
            {
              "id": 7,
              "score": 9,
            },
            {
              "id": 17,
              "score": 9,
            },
            {
              "id": 27,
              "score": 9,
            },
          ],
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "extensions": [
              "sort",
            ],
            "nextCursor": "AQR0ZXN0A2uKxTkpNQgC33DDyxXOmAE",
            "pageUnit": "items",
            "remainingCount": 47,
            "returnedCount": 3,
            "serializedBytes": 418,
            "totalCount": 50,
            "truncated": true,
            "truncationReason": "page_limit",
            "warning": null,
          },
          "responsePath": "/rows",
        },
        "second": {
          "artifactId": "art_0123456789abcdefghij",
          "response": [
            {
              "id": 37,
              "score": 9,
            },
            {
              "id": 47,
              "score": 9,
            },
            {
              "id": 4,
              "score": 8,
            },
          ],
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "extensions": [
              "sort",
            ],
            "nextCursor": "AQR0ZXN0BnI9kg4d1fpJkQCnO9rVK3Y",
            "pageUnit": "items",
            "remainingCount": 44,
            "returnedCount": 3,
            "serializedBytes": 418,
            "totalCount": 50,
            "truncated": true,
            "truncationReason": "page_limit",
            "warning": null,
          },
          "responsePath": "/rows",
        },
      }
    `);
  });

  it("binds the cursor to the sort: another order is another view, an omitted default is the same", () => {
    const rows = Array.from({ length: 5 }, (_, index) => ({ id: index }));
    const input = { responsePath: "/rows", sort: [{ path: "/id" }], pageSize: 2 };
    const cursor = query({ rows }, input).result.responseMeta.nextCursor;
    const defaults = query({ rows }, { ...input, sort: [{ path: "/id", order: "asc" }], cursor });
    const other = query({ rows }, { ...input, sort: [{ path: "/id", order: "desc" }], cursor });
    expect({
      defaults: defaults.result.response,
      other: other.result.response.error.details,
      sameHash:
        computeViewHash({ artifactId: ARTIFACT_ID, aggregate: {} }, "") ===
        computeViewHash(
          { artifactId: ARTIFACT_ID, aggregate: { unwind: false, metrics: [{ op: "count" }] } },
          "",
        ),
    }).toEqual({
      defaults: [{ id: 2 }, { id: 3 }],
      other: { reason: "mismatch" },
      sameHash: true,
    });
  });
});

describe("runQuery: §9 rule 3, aggregate rows", () => {
  it("labels rows by the groupBy paths as given and the metric labels, largest group first", () => {
    expect(
      query(document, {
        responsePath: "/products",
        aggregate: {
          groupBy: "/category",
          metrics: [
            { op: "count" },
            { op: "sum", path: "/price" },
            { op: "avg", path: "/price" },
            { op: "min", path: "/sku" },
            { op: "max", path: "/options", measure: "length" },
            { op: "countDistinct", path: "/tags" },
          ],
        },
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/category": "tools",
            "avg(/price)": 12,
            "count": 3,
            "countDistinct(/tags)": 3,
            "max(len(/options))": 4,
            "min(/sku)": "a1",
            "sum(/price)": 12,
          },
          {
            "/category": "garden",
            "avg(/price)": 5,
            "count": 1,
            "countDistinct(/tags)": 1,
            "max(len(/options))": 0,
            "min(/sku)": "b2",
            "sum(/price)": 5,
          },
        ],
        "responseMeta": {
          "aggregateSkipped": 1,
          "complete": true,
          "contractVersion": 3,
          "extensions": [
            "aggregate",
            "measure",
          ],
          "nextCursor": null,
          "pageUnit": "rows",
          "remainingCount": 0,
          "returnedCount": 2,
          "serializedBytes": 620,
          "totalCount": 2,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });

  it("unwinds arrays so an item counts once per group, and skips items with no group", () => {
    expect(
      query(document, {
        responsePath: "/products",
        aggregate: { groupBy: ["/tags"], unwind: true },
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/tags": "steel",
            "count": 3,
          },
          {
            "/tags": "SALE",
            "count": 1,
          },
          {
            "/tags": "Sale",
            "count": 1,
          },
          {
            "/tags": "wood",
            "count": 1,
          },
        ],
        "responseMeta": {
          "aggregateSkipped": 1,
          "complete": true,
          "contractVersion": 3,
          "extensions": [
            "aggregate",
          ],
          "nextCursor": null,
          "pageUnit": "rows",
          "remainingCount": 0,
          "returnedCount": 4,
          "serializedBytes": 458,
          "totalCount": 4,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });

  it("gives one row over every item without groupBy: sum of nothing 0, avg, min and max null", () => {
    expect([
      query(document, {
        responsePath: "/products",
        aggregate: {
          metrics: [
            { op: "count" },
            { op: "sum", path: "/category" },
            { op: "avg", path: "/category" },
            { op: "max", path: "/tags" },
          ],
        },
      }).result.response,
      query(document, {
        responsePath: "/products",
        filters: [{ path: "/price", op: "gt", value: 100 }],
        aggregate: { metrics: [{ op: "count" }, { op: "sum", path: "/price" }] },
      }).result.response,
    ]).toEqual([
      [{ count: 5, "sum(/category)": 0, "avg(/category)": null, "max(/tags)": null }],
      [{ count: 0, "sum(/price)": null }],
    ]);
  });

  it("sorts rows by a label named literally, and pages them as rows", () => {
    expect(
      query(document, {
        responsePath: "/products",
        aggregate: { groupBy: "/category", metrics: [{ op: "sum", path: "/price" }] },
        sort: [{ path: "sum(/price)", order: "desc" }],
        pageSize: 1,
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/category": "tools",
            "sum(/price)": 12,
          },
        ],
        "responseMeta": {
          "aggregateSkipped": 1,
          "complete": false,
          "contractVersion": 3,
          "extensions": [
            "sort",
            "aggregate",
          ],
          "nextCursor": "AQR0ZXN0Aa9nxCuh-TRnY-SyOXqLYDE",
          "pageUnit": "rows",
          "remainingCount": 1,
          "returnedCount": 1,
          "serializedBytes": 432,
          "totalCount": 2,
          "truncated": true,
          "truncationReason": "page_limit",
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });

  it("groups objects and arrays by deep equality, and null is a group of its own", () => {
    const rows = [
      { g: { a: 1, b: 2 } },
      { g: { b: 2, a: 1 } },
      { g: null },
      { g: [1] },
      { g: null },
    ];
    expect(
      query({ rows }, { responsePath: "/rows", aggregate: { groupBy: "/g" } }).result.response,
    ).toEqual([
      { "/g": { a: 1, b: 2 }, count: 2 },
      { "/g": null, count: 2 },
      { "/g": [1], count: 1 },
    ]);
  });
});

describe("runQuery: §9 rule 4, array-aware matching", () => {
  const ids = (filters: Record<string, unknown>[]) =>
    query(document, { responsePath: "/products", fields: ["sku"], filters }).result.response.map(
      (row: { sku: string }) => row.sku,
    );

  it("matches icontains on string elements of arrays, nin never on a missing value, measure on lengths", () => {
    expect({
      icontainsElement: ids([{ path: "/tags", op: "icontains", value: "sale" }]),
      nin: ids([{ path: "/category", op: "nin", value: ["garden"] }]),
      lengthGte: ids([{ path: "/options", op: "gte", value: 1, measure: "length" }]),
      lengthExistsFalse: ids([{ path: "/price", op: "exists", value: false, measure: "length" }]),
      anyOf: ids([
        {
          anyOf: [
            { path: "/price", op: "lt", value: 6 },
            { path: "/category", op: "eq", value: "garden" },
            { path: "/tags", op: "eq", value: [] },
          ],
        },
      ]),
    }).toEqual({
      icontainsElement: ["a1", "e5"],
      nin: ["a1", "c3", "e5"],
      lengthGte: ["a1", "c3", "e5"],
      lengthExistsFalse: ["a1", "b2", "d4", "e5"],
      anyOf: ["b2"],
    });
  });

  it("reports an anyOf's counts and its filters' counts", () => {
    expect(
      query(document, {
        responsePath: "/products",
        fields: ["sku"],
        filters: [
          {
            anyOf: [
              { path: "/missing", value: 1 },
              { path: "/options", op: "eq", value: 3, measure: "length" },
            ],
          },
          { path: "/sku", op: "nin", value: ["zz"] },
        ],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "sku": "a1",
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "extensions": [
            "anyOf",
            "nin",
            "measure",
          ],
          "fieldsResolved": {
            "sku": 1,
          },
          "filtersApplied": [
            {
              "anyOf": [
                {
                  "matched": 0,
                  "op": "eq",
                  "path": "/missing",
                  "resolvedOn": 0,
                },
                {
                  "matched": 1,
                  "measure": "length",
                  "op": "eq",
                  "path": "/options",
                  "resolvedOn": 4,
                },
              ],
              "matched": 1,
              "resolvedOn": 4,
            },
            {
              "matched": 5,
              "op": "nin",
              "path": "/sku",
              "resolvedOn": 5,
            },
          ],
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 626,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });
});

describe("runQuery: §9 rule 5, unresolved paths", () => {
  it("lists every filter, groupBy and metric path that resolves on no item at once", () => {
    expect(
      query(document, {
        responsePath: "/products",
        filters: [
          { path: "/colour", value: "red" },
          {
            anyOf: [
              { path: "/a", value: 1 },
              { path: "/b", value: 2 },
            ],
          },
        ],
        aggregate: { groupBy: ["/category", "kind"], metrics: [{ op: "sum", path: "/cost" }] },
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "FILTER_PATH_UNRESOLVED",
            "details": {
              "itemKeys": [
                "sku",
                "category",
                "price",
                "tags",
                "options",
              ],
              "path": "/colour",
              "paths": [
                "/colour",
                "/a",
                "/b",
                "kind",
                "/cost",
              ],
            },
            "message": "Filter path "/colour", filter path "/a", filter path "/b", groupBy path "kind", metric path "/cost" resolve on none of the 5 items of "/products". Item keys: sku, category, price, tags, options. Paths are item keys ("id") or pointers relative to each item ("/type").",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 756,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });

  it("fails an anyOf only when none of its paths resolves, and a sort path like a filter path", () => {
    expect([
      query(document, {
        responsePath: "/products",
        filters: [
          {
            anyOf: [
              { path: "/nope", value: 1 },
              { path: "/sku", value: "a1" },
            ],
          },
        ],
        fields: ["sku"],
      }).result.response,
      query(document, { responsePath: "/products", sort: [{ path: "tags/0" }] }).result.response
        .error,
    ]).toMatchInlineSnapshot(`
      [
        [
          {
            "sku": "a1",
          },
        ],
        {
          "code": "FILTER_PATH_UNRESOLVED",
          "details": {
            "itemKeys": [
              "sku",
              "category",
              "price",
              "tags",
              "options",
            ],
            "path": "tags/0",
            "paths": [
              "tags/0",
            ],
            "suggestedPath": "/tags/0",
          },
          "message": "Sort path "tags/0" resolves on none of the 5 items of "/products". Did you mean "/tags/0"? Item keys: sku, category, price, tags, options. Paths are item keys ("id") or pointers relative to each item ("/type").",
        },
      ]
    `);
  });

  it("fails a sort path over rows that is no label and resolves on no row, listing the labels", () => {
    expect(
      query(document, {
        responsePath: "/products",
        aggregate: { groupBy: "/category" },
        sort: [{ path: "sum(/price)" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "FILTER_PATH_UNRESOLVED",
            "details": {
              "itemKeys": [
                "/category",
                "count",
              ],
              "path": "sum(/price)",
              "paths": [
                "sum(/price)",
              ],
            },
            "message": "Sort path "sum(/price)" resolves on none of the 2 rows of "/products". With aggregate a sort path names a row label: /category, count.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 573,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/products",
      }
    `);
  });
});

describe("runQuery: §9 on objectMode entries and jsonPath rows", () => {
  const keyed = {
    nodes: {
      slack: { type: "chat", options: ["a", "b"] },
      gmail: { type: "mail", options: ["a"] },
      teams: { type: "chat", options: [] },
    },
  };

  it("keeps sort and aggregate in OBJECT_MODE_REQUIRED's suggestedRequest, paths under /value", () => {
    expect(
      query(keyed, {
        responsePath: "/nodes",
        filters: [{ path: "/type", op: "exists" }],
        aggregate: {
          groupBy: "/type",
          metrics: [{ op: "max", path: "/options", measure: "length" }],
        },
        sort: [{ path: "max(len(/options))", order: "desc" }, { path: "/type" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "OBJECT_MODE_REQUIRED",
            "details": {
              "suggestedRequest": {
                "aggregate": {
                  "groupBy": "/value/type",
                  "metrics": [
                    {
                      "measure": "length",
                      "op": "max",
                      "path": "/value/options",
                    },
                  ],
                },
                "artifactId": "art_0123456789abcdefghij",
                "filters": [
                  {
                    "op": "exists",
                    "path": "/value/type",
                  },
                ],
                "objectMode": "entries",
                "responsePath": "/nodes",
                "sort": [
                  {
                    "order": "desc",
                    "path": "max(len(/value/options))",
                  },
                  {
                    "path": "/value/type",
                  },
                ],
              },
            },
            "message": ""/nodes" is a keyed object (its entries are objects), so fields, filters, sort and aggregate apply to its entries: send details.suggestedRequest (objectMode "entries", paths under /value, the entry name as /key).",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 914,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/nodes",
      }
    `);
  });

  it("answers that suggestedRequest, and sorts entries by /key and /value/...", () => {
    const suggested = query(keyed, {
      responsePath: "/nodes",
      aggregate: { groupBy: "/type" },
      sort: [{ path: "/type" }],
    }).result.response.error.details.suggestedRequest;
    const { artifactId: _id, ...rest } = suggested;
    expect([
      query(keyed, rest).result.response,
      query(keyed, {
        responsePath: "/nodes",
        objectMode: "entries",
        sort: [{ path: "/value/options", measure: "length" }, { path: "/key" }],
        fields: ["key"],
      }).result.response,
      query(keyed, {
        jsonPath: "$.nodes.*",
        sort: [{ path: "/pointer", order: "desc" }],
        fields: ["pointer"],
      }).result.response,
    ]).toEqual([
      [
        { "/value/type": "chat", count: 2 },
        { "/value/type": "mail", count: 1 },
      ],
      [{ key: "teams" }, { key: "gmail" }, { key: "slack" }],
      [{ pointer: "/nodes/teams" }, { pointer: "/nodes/slack" }, { pointer: "/nodes/gmail" }],
    ]);
  });
});

describe("runPartialQuery and §9", () => {
  it("declines sort and aggregate, which need every item: the caller parses and runs runQuery", () => {
    const bytes = Buffer.from(JSON.stringify(document));
    const context = createTestContext();
    expect([
      runPartialQuery(bytes, createRequest({ responsePath: "/products" }), context) === undefined,
      runPartialQuery(
        bytes,
        createRequest({ responsePath: "/products", sort: [{ path: "/sku" }] }),
        context,
      ),
      runPartialQuery(bytes, createRequest({ responsePath: "/products", aggregate: {} }), context),
    ]).toEqual([false, undefined, undefined]);
  });
});
