import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";

// The corrections an error or a warning offers, so a model fixes its call in one step.

const node = {
  properties: [
    { name: "operation", type: "options", displayOptions: { show: { resource: ["lead"] } } },
    { name: "resource", type: "options", options: [{ value: "lead" }, { value: "task" }] },
    { name: "limit", type: "number" },
  ],
};

describe("runQuery: corrections", () => {
  it("suggests the pointer form of a filter path written with dots", () => {
    expect(
      query(node, {
        responsePath: "/properties",
        filters: [{ path: "displayOptions.show.resource", op: "contains", value: "lead" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "FILTER_PATH_UNRESOLVED",
            "details": {
              "itemKeys": [
                "name",
                "type",
                "displayOptions",
                "options",
              ],
              "path": "displayOptions.show.resource",
              "paths": [
                "displayOptions.show.resource",
              ],
              "suggestedPath": "/displayOptions/show/resource",
            },
            "message": "Filter path "displayOptions.show.resource" resolves on none of the 3 items of "/properties", so every item would be filtered out. Did you mean "/displayOptions/show/resource"? (a pointer separates its tokens with "/", and a dot is part of a key.) Item keys: name, type, displayOptions, options. Use op "exists" with value false to select items without it.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 905,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/properties",
      }
    `);
  });

  it("suggests the pointer form of a pointer whose tokens are joined with dots", () => {
    const { result } = query(node, {
      responsePath: "/properties",
      filters: [
        { path: "/displayOptions.show.resource", op: "exists", value: true },
        { path: "/displayOptions.show", op: "contains", value: "resource" },
      ],
    });
    expect(result.response.error.details).toEqual({
      path: "/displayOptions.show",
      paths: ["/displayOptions.show"],
      itemKeys: ["name", "type", "displayOptions", "options"],
      suggestedPath: "/displayOptions/show",
    });
  });

  it("suggests the pointer form of sort and groupBy paths written with dots, every one at once", () => {
    const templates = {
      templates: [
        { name: "a", stats: { views: 10 }, meta: { category: "sales" } },
        { name: "b", stats: { views: 30 }, meta: { category: "ops" } },
      ],
    };
    expect(
      query(templates, {
        responsePath: "/templates",
        sort: [{ path: "stats.views", order: "desc" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "FILTER_PATH_UNRESOLVED",
            "details": {
              "itemKeys": [
                "name",
                "stats",
                "meta",
              ],
              "path": "stats.views",
              "paths": [
                "stats.views",
              ],
              "suggestedPath": "/stats/views",
            },
            "message": "Sort path "stats.views" resolves on none of the 2 items of "/templates". Did you mean "/stats/views"? (a pointer separates its tokens with "/", and a dot is part of a key.) Item keys: name, stats, meta. Paths are item keys ("id") or pointers relative to each item ("/type").",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 755,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/templates",
      }
    `);
    expect(
      query(templates, {
        responsePath: "/templates",
        aggregate: { groupBy: "meta.category", metrics: [{ op: "max", path: "/stats.views" }] },
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "FILTER_PATH_UNRESOLVED",
            "details": {
              "itemKeys": [
                "name",
                "stats",
                "meta",
              ],
              "path": "meta.category",
              "paths": [
                "meta.category",
                "/stats.views",
              ],
              "suggestedPath": "/meta/category",
              "suggestedPaths": {
                "/stats.views": "/stats/views",
                "meta.category": "/meta/category",
              },
            },
            "message": "GroupBy path "meta.category", metric path "/stats.views" resolve on none of the 2 items of "/templates". Did you mean "/meta/category" for "meta.category", "/stats/views" for "/stats.views"? (a pointer separates its tokens with "/", and a dot is part of a key.) Item keys: name, stats, meta. Paths are item keys ("id") or pointers relative to each item ("/type").",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 955,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/templates",
      }
    `);
  });

  it("suggests the pointer form of a field written with dots", () => {
    expect(
      query(node, { responsePath: "/properties", fields: ["name", "displayOptions.show"] }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "INVALID_FIELD_PATH",
            "details": {
              "field": "displayOptions.show",
              "suggestedField": "/displayOptions/show",
            },
            "message": "Field "displayOptions.show" resolves on no item of "/properties", but "/displayOptions/show" does: a pointer separates its tokens with "/", and a dot is part of a key. Did you mean "/displayOptions/show"?",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 639,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/properties",
      }
    `);
  });

  it("suggests the collection and a field for a responsePath that names a key of its items", () => {
    expect(
      query(node, { responsePath: "/properties/name", pageSize: 50 }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_PATH",
            "details": {
              "availableChildren": [
                "/properties/0",
                "/properties/1",
                "/properties/2",
              ],
              "failedAt": "name",
              "resolvedPrefix": "/properties",
              "suggestedPath": "/properties",
              "suggestedRequest": {
                "artifactId": "art_0123456789abcdefghij",
                "fields": [
                  "name",
                ],
                "pageSize": 50,
                "responsePath": "/properties",
              },
              "typeAtFailure": "array",
            },
            "message": "responsePath "/properties/name" does not resolve: "name" is not a child of the array at "/properties". "/properties" is an array and "name" is a field of its items: send responsePath "/properties" with fields ["name"] (details.suggestedRequest). Available children of "/properties": /properties/0, /properties/1, /properties/2.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 1002,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/properties/name",
      }
    `);
  });

  it("reads a deeper item path below a collection as a pointer field", () => {
    const { result } = query(node, { responsePath: "/properties/displayOptions/show" });
    expect(result.response.error.details.suggestedRequest).toEqual({
      artifactId: "art_0123456789abcdefghij",
      responsePath: "/properties",
      fields: ["/displayOptions/show"],
    });
  });

  it("says when a jsonPath selects nothing", () => {
    expect(query(node, { jsonPath: "$.properties[*].label" }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 0,
          "serializedBytes": 466,
          "totalCount": 0,
          "truncated": false,
          "truncationReason": null,
          "warning": "jsonPath "$.properties[*].label" selected nothing, so there are no rows. Check the member names with describe (JSONPath here: names, indices, wildcards, slices and "..").",
        },
        "responsePath": "",
      }
    `);
  });

  it("says that .length is not JSONPath and points to measure", () => {
    expect(
      query(node, { jsonPath: "$.properties[*].options.length" }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 0,
          "serializedBytes": 697,
          "totalCount": 0,
          "truncated": false,
          "truncationReason": null,
          "warning": "jsonPath "$.properties[*].options.length" selected nothing, so there are no rows. ".length" is not JSONPath here: a length is no JSON member (it has no pointer), so it is never a row. To compare, sort or aggregate lengths, select the collection and use measure "length" on a filter, sort key or metric, e.g. filters [{"path": "/options", "measure": "length", "op": "gt", "value": 10}].",
        },
        "responsePath": "",
      }
    `);
  });

  it("does not warn that the fields of an empty filtered page resolved on no item", () => {
    expect(
      query(node, {
        responsePath: "/properties",
        filters: [{ path: "/type", value: "boolean" }],
        fields: ["name", "/options"],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "/options": 0,
            "name": 0,
          },
          "filtersApplied": [
            {
              "matched": 0,
              "op": "eq",
              "path": "/type",
              "resolvedOn": 3,
            },
          ],
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 0,
          "serializedBytes": 419,
          "totalCount": 0,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/properties",
      }
    `);
  });

  it("lists the children closest to what was typed first", () => {
    const document = {
      alpha: 1,
      beta: 2,
      displayName: 3,
      nodes: 4,
      ...Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`key${index}`, index])),
      properties: 5,
      propertyCount: 6,
    };
    expect(query(document, { responsePath: "/propertes" }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_PATH",
            "details": {
              "availableChildren": [
                "/properties",
                "/propertyCount",
                "/nodes",
                "/beta",
                "/alpha",
                "/key0",
                "/key1",
                "/key2",
                "/key3",
                "/key4",
                "/key5",
                "/key6",
                "/key7",
                "/key8",
                "/key9",
                "/key10",
                "/key11",
                "/key12",
                "/key13",
                "/key14",
                "/key15",
                "/key16",
                "/key17",
                "/key18",
                "/key19",
                "/key20",
                "/key21",
                "/key22",
                "/key23",
                "/key24",
              ],
              "failedAt": "propertes",
              "resolvedPrefix": "",
              "typeAtFailure": "object",
            },
            "message": "responsePath "/propertes" does not resolve: "propertes" is not a child of the object at "". Available children of "": /properties, /propertyCount, /nodes, /beta, /alpha, /key0, /key1, /key2, /key3, /key4. Use describe to see the shape.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 962,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/propertes",
      }
    `);
  });
});
