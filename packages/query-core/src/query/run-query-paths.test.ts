import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";

const envelope = {
  success: true,
  response: { teams: [{ id: 1 }, { id: 2 }, { id: 3 }], total: 3 },
};

describe("runQuery: responsePath (SPEC.md §4.1)", () => {
  it("selects the artifact's responseRoot when responsePath is omitted", () => {
    expect(
      query(envelope, { pageSize: 1 }, { responseRoot: "/response" }).result,
    ).toMatchInlineSnapshot(`
        {
          "artifactId": "art_0123456789abcdefghij",
          "response": {
            "teams": [
              {
                "id": 1,
              },
              {
                "id": 2,
              },
              {
                "id": 3,
              },
            ],
          },
          "responseMeta": {
            "complete": false,
            "contractVersion": 3,
            "nextCursor": "AQR0ZXN0AfJk8rpoMMm-T_SwiD4DVtc",
            "pageUnit": "entries",
            "remainingCount": 1,
            "returnedCount": 1,
            "serializedBytes": 378,
            "totalCount": 2,
            "truncated": true,
            "truncationReason": "page_limit",
            "warning": null,
          },
          "responsePath": "/response",
        }
      `);
  });

  it("resolves the exact path first", () => {
    const document = { teams: ["document"], response: { teams: ["root"] } };
    expect(
      query(document, { responsePath: "/teams" }, { responseRoot: "/response" }).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          "document",
        ],
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "nextCursor": null,
          "pageUnit": "items",
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 310,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/teams",
      }
    `);
  });

  it("retries once below responseRoot and reports inferredResponsePath", () => {
    expect(
      query(
        envelope,
        { responsePath: "/teams", fields: ["id"], pageSize: 2 },
        { responseRoot: "/response" },
      ).result,
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "id": 1,
          },
          {
            "id": 2,
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "fieldsResolved": {
            "id": 2,
          },
          "inferredResponsePath": "/response/teams",
          "nextCursor": "AQR0ZXN0AjAjBlHLRXYjSBm4oPKncG8",
          "pageUnit": "items",
          "remainingCount": 1,
          "returnedCount": 2,
          "serializedBytes": 421,
          "totalCount": 3,
          "truncated": true,
          "truncationReason": "page_limit",
          "warning": null,
        },
        "responsePath": "/teams",
      }
    `);
  });

  it('selects the whole document with ""', () => {
    expect(query({ a: 1 }, { responsePath: "" }, { responseRoot: "/a" }).result.response).toEqual({
      a: 1,
    });
  });

  it("reports where a missing path stopped and what exists there", () => {
    expect(
      query(envelope, { responsePath: "/response/temas" }, { responseRoot: "/response" }),
    ).toMatchInlineSnapshot(`
        {
          "bytes": 777,
          "isError": true,
          "result": {
            "artifactId": "art_0123456789abcdefghij",
            "response": {
              "error": {
                "code": "INVALID_RESPONSE_PATH",
                "details": {
                  "availableChildren": [
                    "/response/teams",
                    "/response/total",
                  ],
                  "failedAt": "temas",
                  "resolvedPrefix": "/response",
                  "typeAtFailure": "object",
                },
                "message": "responsePath "/response/temas" does not resolve (also tried "/response/response/temas" below responseRoot "/response"): "temas" is not a child of the object at "/response". Available children of "/response": /response/teams, /response/total. Use describe to see the shape.",
              },
            },
            "responseMeta": {
              "complete": false,
              "contractVersion": 3,
              "nextCursor": null,
              "remainingCount": null,
              "returnedCount": 0,
              "serializedBytes": 777,
              "totalCount": null,
              "truncated": false,
              "truncationReason": null,
              "warning": null,
            },
            "responsePath": "/response/temas",
          },
        }
      `);
  });

  it("suggests the leading slash for a path without one", () => {
    expect(query(envelope, { responsePath: "response/teams" }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_PATH",
            "details": {
              "suggestedPath": "/response/teams",
            },
            "message": "responsePath "response/teams" is not an RFC 6901 JSON Pointer: a non-empty path starts with "/". Send responsePath "/response/teams".",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 534,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "response/teams",
      }
    `);
  });

  it("returns a scalar selection as the value itself", () => {
    expect(query(envelope, { responsePath: "/response/total" }).result).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": 3,
        "responseMeta": {
          "complete": true,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": 0,
          "returnedCount": 1,
          "serializedBytes": 289,
          "totalCount": 1,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": "/response/total",
      }
    `);
  });
});
