import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";

const workflow = {
  id: "wf-1",
  name: "Orders",
  nodes: [
    { id: "a", name: "Start", type: "trigger", parameters: { jsCode: "return [];" } },
    {
      id: "b",
      name: "Code",
      type: "code",
      parameters: { jsCode: "return items;" },
      "a/b": "slash key",
    },
  ],
  tags: [{ name: "prod" }],
  connections: { Start: { main: [[{ node: "Code" }]] } },
};

describe("runQuery: projection (SPEC.md §4.2)", () => {
  it("reads literal root keys and pointers relative to each item, labels as given", () => {
    expect(
      query(workflow, { responsePath: "/nodes", fields: ["name", "/parameters/jsCode", "a/b"] })
        .result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/parameters/jsCode": "return [];",
            "name": "Start",
          },
          {
            "/parameters/jsCode": "return items;",
            "a/b": "slash key",
            "name": "Code",
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "/parameters/jsCode": 2,
            "a/b": 1,
            "name": 2,
          },
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 2,
          "serializedBytes": 480,
          "totalCount": 2,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/nodes",
      }
    `);
  });

  it("fails with suggestedField when only the pointer form of a field resolves", () => {
    expect(
      query(workflow, { responsePath: "/nodes", fields: ["id", "parameters/jsCode"] }).result,
    ).toMatchInlineSnapshot(`
        {
          "artifactId": "art_0123456789abcdefghij",
          "response": {
            "error": {
              "code": "INVALID_FIELD_PATH",
              "details": {
                "field": "parameters/jsCode",
                "suggestedField": "/parameters/jsCode",
              },
              "message": "Field "parameters/jsCode" is not a key of the items of "/nodes", but "/parameters/jsCode" resolves: a field without a leading "/" is a literal key. Did you mean "/parameters/jsCode"?",
            },
          },
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "nextCursor": null,
            "remainingCount": null,
            "returnedCount": 0,
            "serializedBytes": 608,
            "totalCount": null,
            "truncated": false,
            "truncationReason": null,
            "warning": null,
          },
          "responsePath": "/nodes",
        }
      `);
  });

  it("fails when no field resolves on any item, listing the item keys", () => {
    expect(
      query(workflow, { responsePath: "/nodes", fields: ["color"] }).result.response,
    ).toMatchInlineSnapshot(`
        {
          "error": {
            "code": "INVALID_FIELD_PATH",
            "details": {
              "field": "color",
              "itemKeys": [
                "id",
                "name",
                "type",
                "parameters",
                "a/b",
              ],
            },
            "message": "No field matched any property of the items of "/nodes" (first: "color"). Fields are literal keys (e.g. "id") or pointers relative to each item (e.g. "/parameters/jsCode"). Item keys: id, name, type, parameters, a/b.",
          },
        }
      `);
  });

  it("only warns about a field that exists in the selection but on none of the filtered items", () => {
    const call = query(workflow, {
      responsePath: "/nodes",
      fields: ["id", "a/b"],
      filters: [{ path: "/type", value: "trigger" }],
    });
    expect([call.result.response, call.result.responseMeta.warning]).toEqual([
      [{ id: "a" }],
      'Fields that resolved on no item were left out: "a/b".',
    ]);
  });

  it("projects the selected object itself when a field resolves on it", () => {
    expect(query(workflow, { fields: ["id", "name", "missing"] }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "id": "wf-1",
          "name": "Orders",
        },
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "id": 1,
            "missing": 0,
            "name": 1,
          },
          "nextCursor": null,
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 406,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": "Fields that resolved on no item were left out: "missing".",
        },
        "responsePath": "",
      }
    `);
  });
});

describe("runQuery: collection inference and prefix recovery (§4.3, §4.4)", () => {
  it("selects the one array child of an object for fields", () => {
    const document = { data: { executions: [{ id: "e1", status: "ok" }], returned: 1 } };
    expect(
      query(document, { responsePath: "/data", fields: ["id"] }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "id": "e1",
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "id": 1,
          },
          "inferredResponsePath": "/data/executions",
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 378,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/data",
      }
    `);
  });

  it("reads repeated collection prefixes relative to each item and says so", () => {
    expect(
      query(workflow, { fields: ["/nodes/name", "/nodes/type"] }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/nodes/name": "Start",
            "/nodes/type": "trigger",
          },
          {
            "/nodes/name": "Code",
            "/nodes/type": "code",
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "/nodes/name": 2,
            "/nodes/type": 2,
          },
          "inferredResponsePath": "/nodes",
          "nextCursor": null,
          "normalizedFields": {
            "/nodes/name": "/name",
            "/nodes/type": "/type",
          },
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 2,
          "serializedBytes": 777,
          "totalCount": 2,
          "truncated": false,
          "truncationReason": null,
          "warning": "Every pointer repeated the collection prefix "/nodes", so the fields and filters were interpreted relative to each item of "/nodes" (see normalizedFields); labels are kept. Send responsePath "/nodes" with the normalized paths to avoid this.",
        },
        "responsePath": "",
      }
    `);
  });

  it("fails closed with AMBIGUOUS_COLLECTION for mixed prefixes", () => {
    expect(
      query(workflow, { fields: ["/nodes/name", "/tags/name"] }).result.response,
    ).toMatchInlineSnapshot(`
        {
          "error": {
            "code": "AMBIGUOUS_COLLECTION",
            "details": {
              "candidates": [
                "/nodes",
                "/tags",
              ],
            },
            "message": "The pointer fields and filters of this request name different collections or mix a collection prefix with other paths below the document root, so no single collection can be inferred. Send responsePath set to one of: /nodes, /tags.",
          },
        }
      `);
  });

  it("fails closed with AMBIGUOUS_COLLECTION when several arrays could hold the fields", () => {
    expect(
      query({ rows: [{ id: 1 }], errors: [] }, { fields: ["id"] }).result.response,
    ).toMatchInlineSnapshot(`
        {
          "error": {
            "code": "AMBIGUOUS_COLLECTION",
            "details": {
              "candidates": [
                "/rows",
                "/errors",
              ],
            },
            "message": "The document root holds 2 arrays, so the collection that fields and filters apply to cannot be inferred. Send responsePath set to one of: /rows, /errors.",
          },
        }
      `);
  });
});

describe("runQuery: keyed objects (§4.5)", () => {
  const document = {
    connections: {
      "Source Alpha": { id: "a", type: "main" },
      "Source Beta": { id: "b", type: "main" },
      "Source Gamma": { id: "c", type: "side" },
    },
  };

  it("requires objectMode with a ready-to-send suggestedRequest", () => {
    expect(
      query(document, {
        responsePath: "/connections",
        fields: ["id", "name"],
        filters: [{ path: "/type", value: "main" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "OBJECT_MODE_REQUIRED",
            "details": {
              "suggestedRequest": {
                "artifactId": "art_0123456789abcdefghij",
                "fields": [
                  "/value/id",
                  "/key",
                ],
                "filters": [
                  {
                    "path": "/value/type",
                    "value": "main",
                  },
                ],
                "objectMode": "entries",
                "responsePath": "/connections",
              },
            },
            "message": ""/connections" is a keyed object (its entries are objects), so fields and filters apply to its entries: send details.suggestedRequest (objectMode "entries", paths under /value, the entry name as /key).",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 757,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/connections",
      }
    `);
  });

  it("requires objectMode even when a field names one of its entries", () => {
    const call = query(document, { responsePath: "/connections", fields: ["Source Alpha"] });
    expect(call.result.response.error.code).toBe("OBJECT_MODE_REQUIRED");
  });

  it("answers the suggestedRequest when it is sent back", () => {
    const refused = query(document, {
      responsePath: "/connections",
      fields: ["id"],
      filters: [{ path: "/from", op: "eq", value: "Source Beta" }],
    });
    const suggested = refused.result.response.error.details.suggestedRequest;
    expect(query(document, suggested)).toMatchInlineSnapshot(`
      {
        "bytes": 430,
        "isError": false,
        "result": {
          "artifactId": "art_0123456789abcdefghij",
          "response": [
            {
              "/value/id": "b",
            },
          ],
          "responseMeta": {
            "complete": true,
            "contractVersion": 3,
            "fieldsResolved": {
              "/value/id": 1,
            },
            "filtersApplied": [
              {
                "matched": 1,
                "op": "eq",
                "path": "/key",
                "resolvedOn": 3,
              },
            ],
            "nextCursor": null,
            "pageUnit": "entries",
            "remainingCount": 0,
            "returnedCount": 1,
            "serializedBytes": 430,
            "totalCount": 1,
            "truncated": false,
            "truncationReason": null,
            "warning": null,
          },
          "responsePath": "/connections",
        },
      }
    `);
  });

  it("filters entry rows by /key and /value/..., and names key and value when a path misses", () => {
    const filtered = query(document, {
      responsePath: "/connections",
      objectMode: "entries",
      fields: ["key"],
      filters: [
        { path: "/value/type", value: "main" },
        { path: "/key", op: "contains", value: "Beta" },
      ],
    });
    const missing = query(document, {
      responsePath: "/connections",
      objectMode: "entries",
      filters: [{ path: "/type", value: "main" }],
    });
    expect([filtered.result.response, missing.result.response.error.details]).toEqual([
      [{ key: "Source Beta" }],
      { path: "/type", paths: ["/type"], itemKeys: ["key", "value"] },
    ]);
  });

  it("pages objectMode entries as {key, value} rows", () => {
    expect(
      query(document, { responsePath: "/connections", objectMode: "entries", pageSize: 2 }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "key": "Source Alpha",
            "value": {
              "id": "a",
              "type": "main",
            },
          },
          {
            "key": "Source Beta",
            "value": {
              "id": "b",
              "type": "main",
            },
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": "AQR0ZXN0Anvz4dFF-7SnoGbx2I_d6VI",
          "pageUnit": "entries",
          "remainingCount": 1,
          "returnedCount": 2,
          "serializedBytes": 455,
          "totalCount": 3,
          "truncated": true,
          "truncationReason": "page_limit",
          "warning": null,
        },
        "responsePath": "/connections",
      }
    `);
  });
});
