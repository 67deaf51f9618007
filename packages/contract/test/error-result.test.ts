import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createErrorResult,
  DEFAULT_LIMITS,
  ERROR_CODE_LIST,
  QueryErrorResultSchema,
} from "../src/index.js";

const ID = "Zq3xV9kLm2Pw8RtY6uNb4A";
const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("createErrorResult", () => {
  it("builds the whole error envelope with serializedBytes equal to its own size", () => {
    const result = createErrorResult({
      code: "INVALID_ARTIFACT_HANDLE",
      message: "No artifact with this id is available to you; call the original tool again.",
      details: { reason: "unknown" },
      artifactId: ID,
    });
    expect(result).toMatchInlineSnapshot(`
      {
        "artifactId": "Zq3xV9kLm2Pw8RtY6uNb4A",
        "response": {
          "error": {
            "code": "INVALID_ARTIFACT_HANDLE",
            "details": {
              "reason": "unknown",
            },
            "message": "No artifact with this id is available to you; call the original tool again.",
          },
        },
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": null,
          "remainingCount": null,
          "returnedCount": 0,
          "serializedBytes": 443,
          "totalCount": null,
          "truncated": false,
          "truncationReason": null,
          "warning": null,
        },
        "responsePath": null,
      }
    `);
    expect(result.responseMeta.serializedBytes).toBe(bytesOf(result));
    expect(QueryErrorResultSchema.parse(result)).toEqual(result);
  });

  it("cuts echoed strings to 120 characters without splitting a surrogate pair", () => {
    const result = createErrorResult({
      code: "INVALID_RESPONSE_PATH",
      message: "Not found.",
      details: { failedAt: "x".repeat(500), availableChildren: ["😀".repeat(100)] },
      artifactId: "a".repeat(300),
      responsePath: `/${"p".repeat(118)}😀😀`,
    });
    const details = result.response.error.details ?? {};
    const children = details["availableChildren"] as string[];
    expect({
      artifactId: result.artifactId?.length,
      responsePath: result.responsePath,
      failedAt: (details["failedAt"] as string).length,
      child: children[0]?.length,
      childEndsWithWholePair: children[0]?.endsWith("😀…"),
    }).toEqual({
      artifactId: DEFAULT_LIMITS.maxEchoChars,
      responsePath: `/${"p".repeat(118)}…`,
      failedAt: DEFAULT_LIMITS.maxEchoChars,
      child: DEFAULT_LIMITS.maxEchoChars - 1,
      childEndsWithWholePair: true,
    });
  });

  it("cuts the message to 2048 characters", () => {
    const result = createErrorResult({ code: "AMBIGUOUS_COLLECTION", message: "m".repeat(3000) });
    expect(result.response.error.message).toBe(`${"m".repeat(2047)}…`);
    expect(result.responseMeta.serializedBytes).toBeLessThanOrEqual(4096);
  });

  it("keeps a suggestedRequest whole when it fits", () => {
    const suggestedRequest = {
      artifactId: ID,
      objectMode: "entries",
      fields: ["/key", `/value/${"x".repeat(300)}`],
    };
    const result = createErrorResult({
      code: "OBJECT_MODE_REQUIRED",
      message: "Send details.suggestedRequest.",
      details: { suggestedRequest },
    });
    expect(result.response.error.details).toEqual({ suggestedRequest });
  });

  it("drops an oversized suggestedRequest and sets suggestedRequestOmitted", () => {
    const result = createErrorResult({
      code: "OBJECT_MODE_REQUIRED",
      message: "Resend with objectMode entries.",
      details: {
        suggestedRequest: {
          artifactId: ID,
          objectMode: "entries",
          fields: Array.from({ length: 50 }, (_, index) => `/value/${"x".repeat(400)}${index}`),
        },
      },
      artifactId: ID,
    });
    expect(result.response.error).toEqual({
      code: "OBJECT_MODE_REQUIRED",
      message: "Resend with objectMode entries.",
      details: { suggestedRequestOmitted: true },
    });
    expect(result.responseMeta.serializedBytes).toBe(bytesOf(result));
  });

  it("halves long detail arrays before dropping keys, and says details were truncated", () => {
    const result = createErrorResult({
      code: "INVALID_RESPONSE_PATH",
      message: "The path does not resolve.",
      details: {
        resolvedPrefix: "/data",
        failedAt: "x",
        typeAtFailure: "object",
        availableChildren: Array.from({ length: 30 }, (_, index) => `${index}`.padEnd(119, "c")),
      },
    });
    const details = result.response.error.details ?? {};
    expect({
      keys: Object.keys(details).sort(),
      children: (details["availableChildren"] as string[]).length,
      truncated: details["detailsTruncated"],
    }).toEqual({
      keys: [
        "availableChildren",
        "detailsTruncated",
        "failedAt",
        "resolvedPrefix",
        "typeAtFailure",
      ],
      children: 15,
      truncated: true,
    });
    expect(result.responseMeta.serializedBytes).toBeLessThanOrEqual(4096);
  });

  it("fits 4096 bytes with huge details, an escaped message and a long warning", () => {
    const result = createErrorResult({
      code: "FILTER_PATH_UNRESOLVED",
      message: "\u0001".repeat(2048),
      details: {
        path: "p",
        itemKeys: Array.from({ length: 10_000 }, (_, index) => `key${index}`),
        nested: { deeper: { list: Array.from({ length: 1000 }, () => "\u0000".repeat(200)) } },
      },
      artifactId: "\u0002".repeat(200),
      responsePath: "\u0003".repeat(200),
      warning: "w".repeat(5000),
    });
    expect(QueryErrorResultSchema.parse(result)).toEqual(result);
    expect(bytesOf(result)).toBe(result.responseMeta.serializedBytes);
    expect(result.responseMeta.serializedBytes).toBeLessThanOrEqual(4096);
    expect(result.response.error.details?.["detailsTruncated"]).toBe(true);
  });

  it("fits 4096 bytes when details hold thousands of keys, dropping the largest first", () => {
    const details = Object.fromEntries(
      Array.from({ length: 3_000 }, (_, index) => [`key${index}`, "v".repeat(index % 100)]),
    );
    const result = createErrorResult({ code: "AMBIGUOUS_COLLECTION", message: "m", details });
    const kept = result.response.error.details ?? {};
    const lengths = (keys: string[]) => keys.map((key) => (details[key] as string).length);
    const keptKeys = Object.keys(details).filter((key) => key in kept);
    const droppedKeys = Object.keys(details).filter((key) => !(key in kept));
    expect({
      fits: result.responseMeta.serializedBytes <= 4096,
      exact: bytesOf(result) === result.responseMeta.serializedBytes,
      truncated: kept["detailsTruncated"],
      someKept: keptKeys.length > 0,
      keptNoLongerThanDropped: Math.max(...lengths(keptKeys)) <= Math.min(...lengths(droppedKeys)),
    }).toEqual({
      fits: true,
      exact: true,
      truncated: true,
      someKept: true,
      keptNoLongerThanDropped: true,
    });
  });

  it("never throws on details that are not JSON: cycles, bigints, functions, NaN", () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle["self"] = cycle;
    const result = createErrorResult({
      code: "OBJECT_MODE_REQUIRED",
      message: "m",
      details: { suggestedRequest: cycle, count: 10n, callback: () => 1, ratio: Number.NaN, cycle },
    });
    expect(result.response.error.details).toEqual({
      suggestedRequest: null,
      count: "10",
      callback: null,
      ratio: null,
      cycle: {
        name: "loop",
        self: {
          name: "loop",
          self: { name: "loop", self: { name: "loop", self: { name: "loop", self: null } } },
        },
      },
    });
    expect(result.responseMeta.serializedBytes).toBe(bytesOf(result));
  });

  it("keeps a __proto__ key in details as data", () => {
    const details = JSON.parse('{"__proto__": {"polluted": true}, "field": "x"}');
    const result = createErrorResult({ code: "INVALID_FIELD_PATH", message: "m", details });
    expect(JSON.stringify(result.response.error.details)).toBe(
      '{"__proto__":{"polluted":true},"field":"x"}',
    );
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("always returns a valid envelope within 4096 bytes whatever it is given", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ERROR_CODE_LIST),
        fc.string({ unit: "binary", maxLength: 5000 }),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })),
        fc.option(fc.string({ unit: "binary", maxLength: 400 })),
        fc.option(fc.string({ maxLength: 400 })),
        fc.option(fc.string({ maxLength: 6000 })),
        (code, message, details, artifactId, responsePath, warning) => {
          const result = createErrorResult({
            code,
            message,
            details,
            artifactId,
            responsePath,
            warning,
          });
          // safeParse, not parse: zod's record output drops a "__proto__" key that is data here
          expect(QueryErrorResultSchema.safeParse(result).error).toBeUndefined();
          expect(bytesOf(result)).toBe(result.responseMeta.serializedBytes);
          expect(result.responseMeta.serializedBytes).toBeLessThanOrEqual(
            DEFAULT_LIMITS.maxErrorEnvelopeBytes,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
