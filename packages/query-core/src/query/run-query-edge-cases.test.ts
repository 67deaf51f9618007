import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";

/** An object nested `depth` levels deep under key "a", with a string at the bottom. */
function nest(depth: number): unknown {
  let value: unknown = "needle";
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe("runQuery: edge cases a caller can send", () => {
  it("retries responsePath below responseRoot only once, and never when responseRoot is empty", () => {
    const document = { data: { data: { x: 1 } }, teams: [1] };
    expect({
      twice: query(document, { responsePath: "/x" }, { responseRoot: "/data" }).result.response
        .error.details,
      rootEmpty: query({ data: { teams: [1] } }, { responsePath: "/teams" }).result.response.error
        .details,
    }).toEqual({
      twice: {
        resolvedPrefix: "",
        failedAt: "x",
        typeAtFailure: "object",
        availableChildren: ["/data", "/teams"],
      },
      rootEmpty: {
        resolvedPrefix: "",
        failedAt: "teams",
        typeAtFailure: "object",
        availableChildren: ["/data"],
      },
    });
  });

  it('refuses "-", a non-canonical index and a malformed "~" escape in responsePath', () => {
    const codes = ["/-", "/01", "/a~", "/a~2"].map((responsePath) => {
      const error = query({ "a~": [1, 2] }, { responsePath }).result.response.error;
      return [responsePath, error.code, error.details.failedAt];
    });
    expect(codes).toEqual([
      ["/-", "INVALID_RESPONSE_PATH", "-"],
      ["/01", "INVALID_RESPONSE_PATH", "01"],
      ["/a~", "INVALID_RESPONSE_PATH", "a~"],
      ["/a~2", "INVALID_RESPONSE_PATH", "a~2"],
    ]);
  });

  it("treats a missing value as matching nothing but exists false, also for ne", () => {
    const items = [{ id: 1, s: "a" }, { id: 2 }, { id: 3, s: null }];
    const run = (filter: Record<string, unknown>) => {
      const meta = query(items, { filters: [filter], fields: ["id"] }).result;
      return [
        meta.response.map((item: { id: number }) => item.id),
        meta.responseMeta.filtersApplied,
      ];
    };
    expect({
      ne: run({ path: "/s", op: "ne", value: "a" }),
      notExists: run({ path: "/s", op: "exists", value: false }),
      literalKey: run({ path: "s", value: null }),
    }).toEqual({
      ne: [[3], [{ path: "/s", op: "ne", resolvedOn: 2, matched: 1 }]],
      notExists: [[2], [{ path: "/s", op: "exists", resolvedOn: 2, matched: 1 }]],
      literalKey: [[3], [{ path: "s", op: "eq", resolvedOn: 2, matched: 1 }]],
    });
  });

  it("matches contains on own keys only, never on inherited names such as toString", () => {
    const call = query([{ meta: { key: 1 } }], {
      filters: [{ path: "/meta", op: "contains", value: "toString" }],
    });
    expect(call.result.responseMeta.filtersApplied).toEqual([
      { path: "/meta", op: "contains", resolvedOn: 1, matched: 0 },
    ]);
  });

  it("names the entry a field points at when objectMode is required", () => {
    const keyed = { wfA: { name: "A" }, wfB: { name: "B" } };
    expect(query(keyed, { fields: ["wfA"] }).result.response.error).toEqual({
      code: "OBJECT_MODE_REQUIRED",
      message:
        'The document root is a keyed object (its entries are objects), so fields and filters apply to its entries: send details.suggestedRequest (objectMode "entries", paths under /value, the entry name as /key). "wfA" names the entry "/wfA": to read that entry itself, send responsePath "/wfA" instead.',
      details: {
        suggestedRequest: {
          artifactId: "art_0123456789abcdefghij",
          responsePath: "",
          objectMode: "entries",
          fields: ["/key"],
        },
      },
    });
  });

  it("answers a 10,000-level-deep document with a compacted page instead of failing", () => {
    const call = query(nest(10_000), {});
    expect({ isError: call.isError, meta: call.result.responseMeta }).toEqual({
      isError: false,
      meta: {
        contractVersion: 3,
        truncated: true,
        complete: false,
        truncationReason: "item_size_limit",
        returnedCount: 1,
        totalCount: 1,
        remainingCount: 0,
        nextCursor: null,
        serializedBytes: call.bytes,
        warning:
          'The element at "/a" is larger than what the 32768-byte result budget leaves beside the page metadata, so it was compacted (omissions marked in place). Query it with a narrower responsePath ("/a"), fields, or textSearch.',
        pageUnit: "entries",
      },
    });
  });

  it("reports an over-budget envelope instead of compacting forever when inlineBytes barely holds its metadata", () => {
    const limits = { ...DEFAULT_LIMITS, inlineBytes: 500 };
    const call = query(
      { rows: [{ name: "x".repeat(5000) }] },
      { responsePath: "/rows", fields: ["name"] },
      { limits },
    );
    expect(call.result.response.error).toEqual({
      code: "INVALID_RESPONSE_CONTROLS",
      message:
        "The result's own metadata (field labels, filters, warnings) does not fit the 500-byte result budget: send fewer or shorter fields and filters.",
      details: { field: "fields", expected: "labels and paths that fit 500 bytes" },
    });
  });

  it("finds text at the bottom of a 10,000-level-deep document", () => {
    const call = query(nest(10_000), { textSearch: { query: "needle" } });
    expect(call.result.response[0].pointer).toBe("/a".repeat(10_000));
    expect(call.result.responseMeta.totalCount).toBe(1);
  });

  it("never cuts a surrogate pair at the edge of a textSearch context", () => {
    const text = `${"😀".repeat(300)}needle${"😀".repeat(300)}`;
    const [match] = query({ text }, { textSearch: { query: "needle" } }).result.response;
    expect(match).toEqual({
      pointer: "/text",
      offset: 600,
      context: `${"😀".repeat(58)}needle${"😀".repeat(58)}`,
      contextStart: 484,
      contextEnd: 722,
    });
    expect(text.slice(match.contextStart, match.contextEnd)).toBe(match.context);
  });

  it("keeps __proto__ and constructor keys addressable as data by fields, filters and jsonPath", () => {
    const document = JSON.parse(
      '{"rows": [{"__proto__": {"x": 1}, "constructor": 5}, {"id": 2}], "__proto__": {"x": 3}}',
    );
    expect({
      fields: query(document, {
        responsePath: "/rows",
        fields: ["__proto__", "/__proto__/x", "constructor"],
        filters: [{ path: "/__proto__/x", value: 1 }],
      }).result.response,
      inherited: query(document, {
        responsePath: "/rows",
        filters: [{ path: "/constructor", op: "exists", value: false }],
      }).result.responseMeta.filtersApplied,
      jsonPath: query(document, { jsonPath: "$..x" }).result.response,
    }).toEqual({
      fields: [JSON.parse('{"__proto__": {"x": 1}, "/__proto__/x": 1, "constructor": 5}')],
      inherited: [{ path: "/constructor", op: "exists", resolvedOn: 1, matched: 1 }],
      jsonPath: [
        { pointer: "/rows/0/__proto__/x", value: 1 },
        { pointer: "/__proto__/x", value: 3 },
      ],
    });
  });

  it("drops jsonPath rows that are no JSON member (an array's length, a string's characters)", () => {
    const document = { a: [{ b: 1 }], s: "abc" };
    expect(
      ["$.a.length", "$..length", "$.s[0]", "$.s.length", "$.a[0].b"].map(
        (jsonPath) => query(document, { jsonPath }).result.response,
      ),
    ).toEqual([[], [], [], [], [{ pointer: "/a/0/b", value: 1 }]]);
  });

  it("searches each string once when jsonPath rows overlap ($..* selects rows inside rows)", () => {
    const document = { a: [{ b: "needle" }], c: "needle" };
    const search = (jsonPath: string) => {
      const result = query(document, { jsonPath, textSearch: { query: "needle" } }).result;
      return [
        result.responseMeta.totalCount,
        result.response.map((match: { pointer: string }) => match.pointer),
      ];
    };
    expect({ everything: search("$..*"), repeated: search("$.a[0,0]") }).toEqual({
      everything: [2, ["/a/0/b", "/c"]],
      repeated: [1, ["/a/0/b"]],
    });
  });

  it("refuses every jsonpath-plus script form before evaluating it", () => {
    const forms = [
      "$..[?(@.x)]",
      "$[(@.length-1)]",
      "$.a[?(@string())]",
      "$..[?(this.constructor.constructor('return process')().exit())]",
      "$.a[?(@.b == 1)].c",
    ];
    expect(
      forms.map((jsonPath) => query({ a: [{ b: 1 }] }, { jsonPath }).result.response.error.code),
    ).toEqual(forms.map(() => "INVALID_RESPONSE_CONTROLS"));
  });

  it("refuses RFC 9535 filter selectors without parentheses; a quoted name may hold a ?", () => {
    const document = { a: [{ b: 1 }, { b: 3 }], "what?": [7] };
    // jsonpath-plus gives a backslash no meaning in a quoted name, and a quote outside brackets
    // opens nothing: neither may hide a filter selector.
    const refused = [
      "$.a[?@.b > 2]",
      "$.a[? @.b]",
      "$.a[0, ?@.b]",
      "$..[?@]",
      "$['x\\'][?@.b > 2]",
      "$.a'b[?@.x]",
      "$['a",
    ].map((jsonPath) => query(document, { jsonPath }).result.response.error);
    expect({
      codes: refused.map((error) => error.code),
      message: refused[0].message,
      quoted: query(document, { jsonPath: "$['what?'][0]" }).result.response,
      doubleQuoted: query(document, { jsonPath: '$["what?"][0]' }).result.response,
    }).toEqual({
      codes: refused.map(() => "INVALID_RESPONSE_CONTROLS"),
      message:
        'jsonPath "$.a[?@.b > 2]" contains a script or filter expression, which is never evaluated. Use a path of names, indices, wildcards, slices and "..", then fields and filters to narrow the rows.',
      quoted: [{ pointer: "/what?/0", value: 7 }],
      doubleQuoted: [{ pointer: "/what?/0", value: 7 }],
    });
  });
});
