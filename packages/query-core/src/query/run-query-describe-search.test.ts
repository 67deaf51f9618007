import { describe, expect, it } from "vitest";
import { runQuery } from "./run-query.js";
import {
  createNodes,
  createRequest,
  createTestContext,
  query,
} from "./test-support/query-harness.js";

const workflow = { id: "wf", nodes: createNodes(3), settings: { timezone: "UTC" } };

describe("runQuery: describe (SPEC.md §4.8)", () => {
  it("describes an array by the keys of its sampled items", () => {
    expect(
      query(workflow, { responsePath: "/nodes", describe: true }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "nextCursor": null,
          "pageUnit": "keys",
          "remainingCount": 0,
          "returnedCount": 6,
          "serializedBytes": 736,
          "totalCount": 6,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/nodes",
        "shape": {
          "itemKeys": [
            {
              "length": 6,
              "name": "id",
              "pointer": "/id",
              "type": "string",
            },
            {
              "length": 6,
              "name": "name",
              "pointer": "/name",
              "type": "string",
            },
            {
              "length": 19,
              "name": "type",
              "pointer": "/type",
              "type": "string",
            },
            {
              "name": "typeVersion",
              "pointer": "/typeVersion",
              "type": "number",
            },
            {
              "length": 2,
              "name": "position",
              "pointer": "/position",
              "type": "array",
            },
            {
              "length": 1,
              "name": "parameters",
              "pointer": "/parameters",
              "type": "object",
            },
          ],
          "length": 3,
          "sampledItems": 3,
          "type": "array",
        },
      }
    `);
  });

  it("describes an object by its keys with absolute pointers, paged by keys", () => {
    expect(query(workflow, { describe: true, pageSize: 2 }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": "AQR0ZXN0At5OLvwXfenHMts-8346TOY",
          "pageUnit": "keys",
          "remainingCount": 1,
          "returnedCount": 2,
          "serializedBytes": 485,
          "totalCount": 3,
          "truncated": true,
          "truncationReason": "page_limit",
          "warning": null,
        },
        "responsePath": "",
        "shape": {
          "entryCount": 3,
          "keys": [
            {
              "length": 2,
              "name": "id",
              "pointer": "/id",
              "type": "string",
            },
            {
              "length": 3,
              "name": "nodes",
              "pointer": "/nodes",
              "type": "array",
            },
          ],
          "type": "object",
        },
      }
    `);
  });

  it("describes a scalar by its type and length", () => {
    expect(query(workflow, { responsePath: "/id", describe: true }).result.shape).toEqual({
      type: "string",
      length: 2,
    });
  });
});

describe("runQuery: textSearch (§4.9)", () => {
  it("returns match contexts with absolute pointers, pageable by cursor (match_limit)", () => {
    const first = query(workflow, { textSearch: { query: "NODE-" }, pageSize: 2 });
    expect(first.result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "context": "node-0",
            "contextEnd": 6,
            "contextStart": 0,
            "offset": 0,
            "pointer": "/nodes/0/id",
          },
          {
            "context": "node-1",
            "contextEnd": 6,
            "contextStart": 0,
            "offset": 0,
            "pointer": "/nodes/1/id",
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": "AgR0ZXN0AlMJerGo_T4JYlnDTiX_ia3G",
          "pageUnit": "matches",
          "remainingCount": 1,
          "returnedCount": 2,
          "serializedBytes": 510,
          "totalCount": 3,
          "truncated": true,
          "truncationReason": "match_limit",
          "warning": null,
        },
        "responsePath": "",
      }
    `);
    const second = query(workflow, {
      textSearch: { query: "NODE-" },
      pageSize: 2,
      cursor: first.result.responseMeta.nextCursor,
    });
    expect(second.result.response).toMatchInlineSnapshot(`
      [
        {
          "context": "node-2",
          "contextEnd": 6,
          "contextStart": 0,
          "offset": 0,
          "pointer": "/nodes/2/id",
        },
      ]
    `);
  });

  it("searches for the query literally, not as a pattern", () => {
    const document = { code: ["f(x) + g(y)", "fax"] };
    const call = query(document, { textSearch: { query: "f(x" } });
    expect(call.result.response.map((match: { pointer: string }) => match.pointer)).toEqual([
      "/code/0",
    ]);
  });

  it("honours caseSensitive", () => {
    const call = query(workflow, { textSearch: { query: "NODE", caseSensitive: true } });
    expect(call.result.responseMeta.totalCount).toBe(0);
  });

  it("keeps at most 240 characters of context around a match", () => {
    const text = `${"a".repeat(500)}needle${"b".repeat(500)}`;
    const [match] = query({ text }, { textSearch: { query: "needle" } }).result.response;
    expect({ ...match, context: match.context.length }).toEqual({
      pointer: "/text",
      offset: 500,
      context: 240,
      contextStart: 383,
      contextEnd: 623,
    });
  });

  it("searches a text artifact as its {lines} document", () => {
    const document = { lines: ["first line", "ERROR: disk full", "last line"] };
    const call = query(
      document,
      { textSearch: { query: "error" } },
      { responseRoot: "/lines", mediaType: "text/plain" },
    );
    expect(call.result.response).toEqual([
      {
        pointer: "/lines/1",
        offset: 0,
        context: "ERROR: disk full",
        contextStart: 0,
        contextEnd: 16,
      },
    ]);
  });
});

describe("runQuery: jsonPath extension", () => {
  it("selects rows {pointer, value} that fields and filters then address", () => {
    expect(
      query(workflow, {
        jsonPath: "$.nodes[*]",
        fields: ["pointer", "/value/name"],
        filters: [{ path: "/value/type", value: "n8n-nodes-base.set" }],
      }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "/value/name": "Node 1",
            "pointer": "/nodes/1",
          },
          {
            "/value/name": "Node 2",
            "pointer": "/nodes/2",
          },
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "fieldsResolved": {
            "/value/name": 2,
            "pointer": 2,
          },
          "filtersApplied": [
            {
              "matched": 2,
              "op": "eq",
              "path": "/value/type",
              "resolvedOn": 3,
            },
          ],
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 2,
          "serializedBytes": 511,
          "totalCount": 2,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "",
      }
    `);
  });

  it("refuses filter scripts and dynamic expressions without evaluating them", () => {
    const codes = ["$.nodes[?(@.id)]", "$.nodes[(@.length-1)]", "$..[?(process.exit())]"].map(
      (jsonPath) => query(workflow, { jsonPath }).result.response.error.code,
    );
    expect(codes).toEqual([
      "INVALID_RESPONSE_CONTROLS",
      "INVALID_RESPONSE_CONTROLS",
      "INVALID_RESPONSE_CONTROLS",
    ]);
  });
});

describe("runQuery: output objects", () => {
  it("keeps a __proto__ key as data in pages and projections", () => {
    const document = JSON.parse(
      '{"rows": [{"__proto__": {"polluted": true}, "id": 1}]}',
    ) as unknown;
    const page = query(document, { responsePath: "/rows", fields: ["__proto__", "id"] });
    expect(JSON.stringify(page.result.response)).toBe('[{"__proto__":{"polluted":true},"id":1}]');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("emits projected items, fieldsResolved, the meta and the result without a prototype", () => {
    const document = JSON.parse(
      '{"rows": [{"__proto__": {"polluted": true}, "constructor": 2, "id": 1}]}',
    ) as unknown;
    const page = runQuery(
      document,
      createRequest({
        responsePath: "/rows",
        fields: ["__proto__", "constructor", "toString", "id"],
      }),
      createTestContext(),
    );
    const result = page.result as unknown as {
      response: Record<string, unknown>[];
      responseMeta: { fieldsResolved: Record<string, number> };
    };
    const item = result.response[0] as Record<string, unknown>;
    for (const value of [result, result.responseMeta, result.responseMeta.fieldsResolved, item]) {
      expect(Object.getPrototypeOf(value)).toBeNull();
    }
    expect(Object.keys(item)).toEqual(["__proto__", "constructor", "id"]);
    expect(item.toString).toBeUndefined();
    expect(result.responseMeta.fieldsResolved).toEqual(
      JSON.parse('{"__proto__": 1, "constructor": 1, "toString": 0, "id": 1}'),
    );
  });
});
