import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createErrorResult,
  DEFAULT_LIMITS,
  ErrorObjectSchema,
  parseQueryRequest,
  QueryRequestSchema,
} from "../src/index.js";

const ID = "Zq3xV9kLm2Pw8RtY6uNb4A";

describe("parseQueryRequest", () => {
  it("returns the request unchanged when it is valid, without filling in defaults", () => {
    const request = { artifactId: ID, filters: [{ path: "type" as const, value: "x" }] };
    expect(parseQueryRequest(request)).toEqual({ success: true, data: request });
  });

  it("rejects a snake_case alias with the camelCase name and no noise about its twin", () => {
    expect(parseQueryRequest({ artifact_id: ID })).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "INVALID_RESPONSE_CONTROLS",
          "details": {
            "expected": "one of artifactId,responsePath,describe,objectMode,fields,filters,textSearch,pageSize,cursor,jsonPath,sort,aggregate",
            "field": "artifact_id",
            "suggestedKey": "artifactId",
          },
          "message": "Unknown argument "artifact_id": arguments are camelCase, use "artifactId" instead and call query_response_artifact again.",
        },
        "success": false,
      }
    `);
  });

  it("names a nested alias by its full path and suggests the key inside its object", () => {
    expect(
      parseQueryRequest({ artifactId: ID, textSearch: { query: "x", case_sensitive: true } }),
    ).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "INVALID_RESPONSE_CONTROLS",
          "details": {
            "expected": "one of the keys query, caseSensitive",
            "field": "textSearch.case_sensitive",
            "suggestedKey": "caseSensitive",
          },
          "message": "Unknown argument "textSearch.case_sensitive": arguments are camelCase, use "textSearch.caseSensitive" instead and call query_response_artifact again.",
        },
        "success": false,
      }
    `);
  });

  it("reports an out-of-range value with what was expected", () => {
    expect(parseQueryRequest({ artifactId: ID, pageSize: 0 })).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "INVALID_RESPONSE_CONTROLS",
          "details": {
            "expected": "an integer from 1 to 100 (default 20)",
            "field": "pageSize",
          },
          "message": "Invalid argument pageSize: expected an integer from 1 to 100 (default 20). Correct it and call query_response_artifact again.",
        },
        "success": false,
      }
    `);
  });

  it("says which of two conflicting arguments to drop", () => {
    expect(
      parseQueryRequest({ artifactId: ID, textSearch: { query: "x" }, describe: true }),
    ).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "INVALID_RESPONSE_CONTROLS",
          "details": {
            "conflictsWith": "textSearch",
            "expected": "describe or textSearch, not both: send them in separate calls",
            "field": "describe",
          },
          "message": "Conflicting arguments: describe cannot be combined with textSearch. Send textSearch or describe alone, then call query_response_artifact again.",
        },
        "success": false,
      }
    `);
  });

  it("reports one problem in details and names the others in the message", () => {
    const result = parseQueryRequest({
      artifactId: ID,
      page_size: 5,
      filters: [{ path: "a", op: "like", value: 1 }],
      describe: "yes",
    });
    expect(result).toMatchObject({
      success: false,
      error: {
        details: { field: "page_size", suggestedKey: "pageSize" },
        message: expect.stringMatching(
          / 2 other problems in this call \(also check: (describe, filters\[0\]\.op|filters\[0\]\.op, describe)\)\.$/,
        ),
      },
    });
  });

  it("says a missing artifactId is missing, and treats undefined arguments as {}", () => {
    expect(parseQueryRequest(undefined)).toEqual({
      success: false,
      error: {
        code: "INVALID_RESPONSE_CONTROLS",
        message:
          "Missing required argument artifactId: expected a string: responseMeta.artifact.id of the bounded result. Correct it and call query_response_artifact again.",
        details: {
          field: "artifactId",
          expected: "a string: responseMeta.artifact.id of the bounded result",
        },
      },
    });
  });

  it("cuts an echoed unknown key to 120 characters", () => {
    const key = "k".repeat(1000);
    const result = parseQueryRequest({ artifactId: ID, [key]: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.details?.["field"]).toBe(`${"k".repeat(DEFAULT_LIMITS.maxEchoChars - 1)}…`);
  });

  it("keeps a __proto__ key inside a filter value as data", () => {
    const input = JSON.parse(
      `{"artifactId":"${ID}","filters":[{"path":"x","value":{"__proto__":{"admin":true}}}]}`,
    );
    const result = parseQueryRequest(input);
    expect(JSON.stringify(result)).toBe(JSON.stringify({ success: true, data: input }));
    expect(result.success && result.data).not.toBe(input);
  });

  it("keeps __proto__ as an unknown key instead of a prototype", () => {
    const input = JSON.parse(`{"artifactId":"${ID}","__proto__":{"pageSize":0}}`);
    expect(parseQueryRequest(input)).toMatchObject({
      success: false,
      error: { details: { field: "__proto__" } },
    });
  });

  it("treats a key named like an Object.prototype member as an unknown key, not a synonym", () => {
    expect(
      [
        parseQueryRequest({ artifactId: ID, constructor: 1 }),
        parseQueryRequest({ artifactId: ID, filters: [{ path: "a", value: 1, constructor: 1 }] }),
      ].map((result) => !result.success && result.error),
    ).toEqual([
      {
        code: "INVALID_RESPONSE_CONTROLS",
        message:
          'Unknown argument "constructor": remove it and call query_response_artifact again; accepted keys here are artifactId, responsePath, describe, objectMode, fields, filters, textSearch, pageSize, cursor, jsonPath, sort, aggregate.',
        details: {
          field: "constructor",
          expected:
            "one of artifactId,responsePath,describe,objectMode,fields,filters,textSearch,pageSize,cursor,jsonPath,sort,aggregate",
        },
      },
      {
        code: "INVALID_RESPONSE_CONTROLS",
        message:
          'Unknown argument "filters[0].constructor": remove it and call query_response_artifact again; accepted keys here are path, op, value, measure, anyOf.',
        details: {
          field: "filters[0].constructor",
          expected: "one of the keys path, op, value, measure, anyOf",
        },
      },
    ]);
  });

  it("refuses a filter value nested 10 000 deep as sent over the wire, instead of overflowing the stack", () => {
    const depth = 10_000;
    const wire = `{"artifactId":"${ID}","filters":[{"path":"a","value":${"[".repeat(depth)}1${"]".repeat(depth)}}]}`;
    const tooDeep = {
      success: false,
      error: {
        code: "INVALID_RESPONSE_CONTROLS",
        message:
          "Invalid argument filters[0].value: expected JSON nested at most 64 levels deep. Send a flatter value and call query_response_artifact again.",
        details: { field: "filters[0].value", expected: "JSON nested at most 64 levels deep" },
      },
    };
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect([
      parseQueryRequest(JSON.parse(wire)),
      parseQueryRequest({ artifactId: ID, filters: [{ path: "a", value: cyclic }] }),
    ]).toEqual([tooDeep, tooDeep]);
  });

  it("accepts a filter value nested 60 deep", () => {
    const value = JSON.parse(`${"[".repeat(60)}1${"]".repeat(60)}`);
    expect(parseQueryRequest({ artifactId: ID, filters: [{ path: "a", value }] }).success).toBe(
      true,
    );
  });

  it("reports arguments it cannot read (a throwing getter) as not an object of arguments", () => {
    const input = Object.defineProperty({ artifactId: ID }, "cursor", {
      enumerable: true,
      get() {
        throw new Error("unreadable");
      },
    });
    expect(parseQueryRequest(input)).toEqual({
      success: false,
      error: {
        code: "INVALID_RESPONSE_CONTROLS",
        message:
          "Invalid arguments for query_response_artifact: expected an object of query arguments, at least {artifactId}.",
        details: { field: "", expected: "an object of query arguments, at least {artifactId}" },
      },
    });
  });

  it("never throws, and every failure is a wire error that fits an error envelope", () => {
    const requestLike = fc.record(
      {
        artifactId: fc.oneof(fc.string(), fc.integer()),
        responsePath: fc.string({ maxLength: 600 }),
        describe: fc.oneof(fc.boolean(), fc.string()),
        objectMode: fc.constantFrom("entries", "keys"),
        fields: fc.array(fc.string(), { maxLength: 60 }),
        filters: fc.array(
          fc.record(
            { path: fc.string(), op: fc.string(), value: fc.jsonValue(), Path: fc.string() },
            { requiredKeys: [] },
          ),
          { maxLength: 12 },
        ),
        textSearch: fc.record(
          { query: fc.string(), case_sensitive: fc.boolean() },
          { requiredKeys: [] },
        ),
        pageSize: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double()),
        page_size: fc.integer(),
        cursor: fc.string(),
        jsonPath: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(requestLike, fc.anything()), (input) => {
        const result = parseQueryRequest(input);
        expect(result.success).toBe(
          QueryRequestSchema.safeParse(input === undefined ? {} : input).success,
        );
        if (result.success) return;
        expect(ErrorObjectSchema.parse(result.error)).toEqual(result.error);
        const envelope = createErrorResult({ ...result.error, artifactId: null });
        expect(envelope.response.error).toEqual(result.error);
        expect(envelope.responseMeta.serializedBytes).toBeLessThanOrEqual(4096);
      }),
      { numRuns: 500 },
    );
  });
});
