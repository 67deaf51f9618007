import { QueryResultSchema } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { buildPage, type PageSpec } from "./page-result.js";

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
