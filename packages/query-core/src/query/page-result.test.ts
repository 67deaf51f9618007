import { QueryResultSchema } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { buildPage, type PageSpec, pageText, withElementByElementPages } from "./page-result.js";

// The work_limit hook of SPEC.md §9 rule 6, for a scan that stops before it is done.

function spec(overrides: Partial<PageSpec>): PageSpec {
  const matches = [{ pointer: "/a" }, { pointer: "/b" }];
  return {
    artifactId: "art_0123456789abcdefghij",
    responsePath: "",
    layout: { kind: "array" },
    unit: "matches",
    total: 2,
    offset: 0,
    limit: 2,
    elementAt: (index) => ({ value: matches[index], pointer: "" }),
    compactionReason: "item_size_limit",
    matchLimited: true,
    inlineBytes: 32_768,
    warnings: [],
    sourceTruncated: false,
    nextCursor: (offset) => `cursor-at-${offset}`,
    ...overrides,
  };
}

describe("buildPage: work_limit", () => {
  it("answers what was found with work_limit, remainingCount null and a resuming cursor", () => {
    const result = buildPage(spec({ workLimited: true }));
    expect(QueryResultSchema.safeParse(result).success).toBe(true);
    expect(result.responseMeta.serializedBytes).toBe(Buffer.byteLength(JSON.stringify(result)));
    expect(JSON.parse(JSON.stringify(result))).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "pointer": "/a",
          },
          {
            "pointer": "/b",
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": "cursor-at-2",
          "pageUnit": "matches",
          "remainingCount": null,
          "returnedCount": 2,
          "serializedBytes": 349,
          "totalCount": 2,
          "truncated": true,
          "truncationReason": "work_limit",
          "warning": null,
        },
        "responsePath": "",
      }
    `);
  });

  it("ranks work_limit after the compaction reasons and before match_limit", () => {
    const reasons = [
      buildPage(spec({ workLimited: true, total: 5 })).responseMeta.truncationReason,
      buildPage(spec({ workLimited: false, total: 5 })).responseMeta.truncationReason,
      buildPage(
        spec({
          workLimited: true,
          inlineBytes: 700,
          limit: 1,
          elementAt: () => ({ value: "x".repeat(2_000), pointer: "/big" }),
        }),
      ).responseMeta.truncationReason,
    ];
    expect(reasons).toEqual(["work_limit", "match_limit", "item_size_limit"]);
  });
});

describe("buildPage: a page serialized as one array", () => {
  const pageOf = (values: unknown[], inlineBytes = 32_768) =>
    spec({
      total: values.length,
      limit: values.length,
      elementAt: (index) => ({ value: values[index], pointer: `/${index}` }),
      matchLimited: false,
      inlineBytes,
    });
  const both = (values: unknown[], inlineBytes?: number) => {
    const once = buildPage(pageOf(values, inlineBytes));
    const alone = withElementByElementPages(() => buildPage(pageOf(values, inlineBytes)));
    return { once, alone, text: pageText(once)?.text };
  };

  it("answers small pages as the element-by-element cut does, with the text of the result", () => {
    const { once, alone, text } = both([{ a: 1 }, "é😀", [1, [2]], null, 5]);
    expect(once).toEqual(alone);
    expect(text).toBe(JSON.stringify(once));
    expect(once.responseMeta.serializedBytes).toBe(Buffer.byteLength(text as string));
  });

  it("leaves elements without a text of their own, and pages that pass the budget, to the cut", () => {
    for (const values of [
      [{ a: 1 }, undefined, { b: 2 }],
      [{ a: 1 }, () => 1, { b: 2 }],
      [{ a: 1 }, Symbol("s"), { b: 2 }],
    ]) {
      const { once, alone } = both(values);
      expect(JSON.stringify(once)).toBe(JSON.stringify(alone));
    }
    const large = [{ a: 1 }, { b: "x".repeat(3_000) }, { c: 3 }];
    const { once, alone } = both(large, 2_000);
    expect(once).toEqual(alone);
    expect(once.responseMeta.returnedCount).toBe(1);
  });
});
