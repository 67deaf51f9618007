import { describe, expect, it } from "vitest";
import {
  createErrorResult,
  metricLabel,
  parseQueryRequest,
  QueryResultSchema,
} from "../src/index.js";

// SPEC.md §9 in the contract: every conflict as the whole error envelope a caller receives.

const ID = "Zq3xV9kLm2Pw8RtY6uNb4A";

/** The envelope the query tool returns for a request the contract refuses. */
function envelopeOf(input: Record<string, unknown>) {
  const parsed = parseQueryRequest({ artifactId: ID, ...input });
  if (parsed.success) throw new Error("expected the contract to refuse the request");
  return createErrorResult({ ...parsed.error, artifactId: ID });
}

describe("§9 conflicts (INVALID_RESPONSE_CONTROLS with details.field)", () => {
  it("refuses aggregate with fields: rows carry their own labels", () => {
    expect(envelopeOf({ aggregate: { groupBy: "/type" }, fields: ["id"] })).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_CONTROLS",
            "details": {
              "conflictsWith": "aggregate",
              "expected": "no fields with aggregate (its rows are labelled by their groupBy paths and metrics)",
              "field": "fields",
            },
            "message": "Conflicting arguments: fields cannot be combined with aggregate. Drop fields: no fields with aggregate (its rows are labelled by their groupBy paths and metrics). Then call query_response_artifact again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 696,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
  });

  it("refuses aggregate with describe", () => {
    expect(envelopeOf({ aggregate: {}, describe: true })).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_CONTROLS",
            "details": {
              "conflictsWith": "describe",
              "expected": "aggregate or describe, not both: send them in separate calls",
              "field": "aggregate",
            },
            "message": "Conflicting arguments: aggregate cannot be combined with describe. Send describe or aggregate alone, then call query_response_artifact again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 613,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
  });

  it("refuses aggregate with textSearch", () => {
    expect(envelopeOf({ aggregate: {}, textSearch: { query: "x" } })).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_CONTROLS",
            "details": {
              "conflictsWith": "textSearch",
              "expected": "aggregate or textSearch, not both: send them in separate calls",
              "field": "aggregate",
            },
            "message": "Conflicting arguments: aggregate cannot be combined with textSearch. Send textSearch or aggregate alone, then call query_response_artifact again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 621,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
  });

  it("refuses sort with describe", () => {
    expect(envelopeOf({ sort: [{ path: "/a" }], describe: true })).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_CONTROLS",
            "details": {
              "conflictsWith": "describe",
              "expected": "sort or describe, not both: send them in separate calls",
              "field": "sort",
            },
            "message": "Conflicting arguments: sort cannot be combined with describe. Send describe or sort alone, then call query_response_artifact again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 593,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
  });

  it("refuses sort with textSearch", () => {
    expect(
      envelopeOf({ sort: [{ path: "/a" }], textSearch: { query: "x" } }),
    ).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_RESPONSE_CONTROLS",
            "details": {
              "conflictsWith": "textSearch",
              "expected": "sort or textSearch, not both: send them in separate calls",
              "field": "sort",
            },
            "message": "Conflicting arguments: sort cannot be combined with textSearch. Send textSearch or sort alone, then call query_response_artifact again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 601,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
  });

  it("accepts sort and aggregate with filters, objectMode, jsonPath and each other", () => {
    expect(
      [
        { sort: [{ path: "count", order: "desc" }], aggregate: { groupBy: "/type" } },
        {
          objectMode: "entries",
          sort: [{ path: "/key" }],
          filters: [{ path: "/value/a", op: "nin", value: [1] }],
        },
        { jsonPath: "$..nodes[*]", aggregate: { groupBy: "/value/type" } },
        { describe: false, sort: [{ path: "/a" }] },
      ].map((input) => parseQueryRequest({ artifactId: ID, ...input }).success),
    ).toEqual([true, true, true, true]);
  });
});

describe("§9 row labels and result metadata", () => {
  it("labels metrics as count, op(path) and op(len(path))", () => {
    expect(
      [
        { op: "count" as const },
        { op: "sum" as const, path: "/price" },
        { op: "countDistinct" as const, path: "sku" },
        { op: "max" as const, path: "/options", measure: "length" as const },
      ].map(metricLabel),
    ).toEqual(["count", "sum(/price)", "countDistinct(sku)", "max(len(/options))"]);
  });

  it("admits remainingCount null only with truncationReason work_limit", () => {
    const meta = {
      contractVersion: 3,
      truncated: true,
      complete: false,
      returnedCount: 1,
      totalCount: 1,
      remainingCount: null,
      nextCursor: "AQR0ZXN0AQ",
      serializedBytes: 300,
      warning: null,
      pageUnit: "matches",
    };
    const result = (truncationReason: string) =>
      QueryResultSchema.safeParse({
        artifactId: ID,
        responsePath: "",
        response: [],
        responseMeta: { ...meta, truncationReason },
      }).success;
    expect({ workLimit: result("work_limit"), matchLimit: result("match_limit") }).toEqual({
      workLimit: true,
      matchLimit: false,
    });
  });
});
