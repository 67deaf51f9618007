import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";

const rows = [
  { id: 1, score: 5, text: "Hello", tags: ["alpha"], meta: { key: true }, owner: { name: "ann" } },
  { id: 2, score: 10, text: "goodbye", tags: ["beta"], meta: {}, owner: { name: "bob" } },
  { id: 3, score: "7", text: "HELLO again", tags: [], meta: { key: false } },
];
const document = { rows };

function ids(filters: Record<string, unknown>[]): unknown {
  const call = query(document, { responsePath: "/rows", fields: ["id"], filters });
  return call.isError
    ? call.result.response.error
    : call.result.response.map((row: { id: number }) => row.id);
}

describe("runQuery: filters (SPEC.md §4.6)", () => {
  it("applies each of the ten ops", () => {
    expect({
      eq: ids([{ path: "/owner", value: { name: "bob" } }]),
      eqDefault: ids([{ path: "/id", value: 2 }]),
      ne: ids([{ path: "/id", op: "ne", value: 2 }]),
      in: ids([{ path: "/id", op: "in", value: [1, 3, 9] }]),
      containsSubstring: ids([{ path: "/text", op: "contains", value: "ell" }]),
      containsElement: ids([{ path: "/tags", op: "contains", value: "beta" }]),
      containsKey: ids([{ path: "/meta", op: "contains", value: "key" }]),
      icontains: ids([{ path: "/text", op: "icontains", value: "hello" }]),
      lt: ids([{ path: "/score", op: "lt", value: 10 }]),
      lte: ids([{ path: "/score", op: "lte", value: 10 }]),
      gt: ids([{ path: "/score", op: "gt", value: 5 }]),
      gteString: ids([{ path: "/score", op: "gte", value: "7" }]),
      exists: ids([{ path: "/owner", op: "exists" }]),
      notExists: ids([{ path: "/owner", op: "exists", value: false }]),
    }).toEqual({
      eq: [2],
      eqDefault: [2],
      ne: [1, 3],
      in: [1, 3],
      containsSubstring: [1],
      containsElement: [2],
      containsKey: [1, 3],
      icontains: [1, 3],
      lt: [1],
      lte: [1, 2],
      gt: [2],
      gteString: [3],
      exists: [1, 2],
      notExists: [3],
    });
  });

  it("ANDs filters and counts resolvedOn and matched over every item, not the page", () => {
    expect(
      query(document, {
        responsePath: "/rows",
        fields: ["id"],
        pageSize: 1,
        filters: [
          { path: "/owner/name", op: "icontains", value: "B" },
          { path: "/score", op: "gte", value: 5 },
        ],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "id": 2,
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "id": 1,
          },
          "filtersApplied": [
            {
              "matched": 1,
              "op": "icontains",
              "path": "/owner/name",
              "resolvedOn": 2,
            },
            {
              "matched": 2,
              "op": "gte",
              "path": "/score",
              "resolvedOn": 3,
            },
          ],
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 475,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/rows",
      }
    `);
  });

  it("counts each of many filters on its own, past the first three", () => {
    const call = query(document, {
      responsePath: "/rows",
      fields: ["id"],
      filters: [
        { path: "/id", op: "gte", value: 1 },
        { path: "/text", op: "icontains", value: "o" },
        { path: "/tags", op: "exists" },
        { path: "/owner/name", op: "ne", value: "zed" },
        { path: "/meta/key", value: true },
      ],
    });
    expect([call.result.response, call.result.responseMeta.filtersApplied]).toEqual([
      [{ id: 1 }],
      [
        { path: "/id", op: "gte", resolvedOn: 3, matched: 3 },
        { path: "/text", op: "icontains", resolvedOn: 3, matched: 3 },
        { path: "/tags", op: "exists", resolvedOn: 3, matched: 3 },
        { path: "/owner/name", op: "ne", resolvedOn: 2, matched: 2 },
        { path: "/meta/key", op: "eq", resolvedOn: 2, matched: 1 },
      ],
    ]);
  });

  it("fails with FILTER_PATH_UNRESOLVED when a path resolves on no item", () => {
    expect(
      query(document, {
        responsePath: "/rows",
        filters: [
          { path: "score", op: "gt", value: 1 },
          { path: "/color", value: "red" },
        ],
      }).result.response,
    ).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "FILTER_PATH_UNRESOLVED",
          "details": {
            "itemKeys": [
              "id",
              "score",
              "text",
              "tags",
              "meta",
              "owner",
            ],
            "path": "/color",
            "paths": [
              "/color",
            ],
          },
          "message": "Filter path "/color" resolves on none of the 3 items of "/rows", so every item would be filtered out. Item keys: id, score, text, tags, meta, owner. Use op "exists" with value false to select items without it.",
        },
      }
    `);
  });

  it("refuses filters on an object without a collection", () => {
    expect(
      query(
        { record: { id: 1, name: "One" } },
        { responsePath: "/record", filters: [{ path: "/id", value: 1 }] },
      ).result.response.error,
    ).toMatchInlineSnapshot(`
      {
        "code": "INVALID_RESPONSE_CONTROLS",
        "details": {
          "expected": "a responsePath that selects an array, or objectMode entries",
          "field": "filters",
        },
        "message": "Filters apply to the items of a collection, and "/record" is an object without one: select a JSON array with responsePath, or send objectMode "entries" to filter its entries.",
      }
    `);
  });

  it("infers the one array of an object for filters", () => {
    const call = query(
      { rows: [{ kind: "keep" }, { kind: "drop" }] },
      { filters: [{ path: "/kind", value: "keep" }] },
    );
    expect([call.result.response, call.result.responseMeta.inferredResponsePath]).toEqual([
      [{ kind: "keep" }],
      "/rows",
    ]);
  });
});
