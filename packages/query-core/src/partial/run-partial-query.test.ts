import { DEFAULT_LIMITS, type QueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapePointerToken } from "../pointer/pointer.js";
import type { QueryContext } from "../query/query-context.js";
import { type QueryOutcome, runQuery } from "../query/run-query.js";
import { createRequest, createTestContext } from "../query/test-support/query-harness.js";
import { runPartialQuery } from "./run-partial-query.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** The page of an answer: its values and the cursor of the next page (undefined on errors). */
function pageOf(outcome: QueryOutcome | undefined): { response: unknown; nextCursor?: string } {
  if (outcome === undefined || outcome.isError) return { response: undefined };
  const result = outcome.result as {
    response: unknown;
    responseMeta: { nextCursor?: string | null };
  };
  const nextCursor = result.responseMeta.nextCursor ?? undefined;
  return { response: result.response, ...(nextCursor === undefined ? {} : { nextCursor }) };
}

/** runQuery on the fully parsed text: what the partial answer must equal. */
function fullAnswer(text: string, request: QueryRequest, context: QueryContext) {
  return runQuery(JSON.parse(text), request, context);
}

const items = Array.from({ length: 45 }, (_, index) => ({
  id: index,
  name: `item-${index}`,
  tags: [`t${index % 3}`, { nested: 'x"y\\z ü 🙂' }],
}));
const documentText = JSON.stringify({ success: true, data: { total: 45, items }, after: [1, 2] });

describe("runPartialQuery", () => {
  it("answers a first page exactly like runQuery on the parsed document", () => {
    const request = createRequest({ responsePath: "/data/items", pageSize: 10 });
    const context = createTestContext();
    const partial = runPartialQuery(bytesOf(documentText), request, context);
    expect(partial).toEqual(fullAnswer(documentText, request, context));
    expect(partial?.result).toMatchObject({
      responseMeta: { totalCount: 45, returnedCount: 10 },
    });
  });

  it("follows the cursors to the last page, each page equal to the full answer", () => {
    const context = createTestContext({ responseRoot: "/data/items" });
    const bytes = bytesOf(JSON.stringify(JSON.parse(documentText), null, 2));
    let cursor: string | undefined;
    const seen: number[] = [];
    do {
      const request = createRequest({ pageSize: 20, ...(cursor === undefined ? {} : { cursor }) });
      const partial = runPartialQuery(bytes, request, context);
      expect(partial).toEqual(fullAnswer(documentText, request, context));
      const page = pageOf(partial);
      seen.push(...(page.response as { id: number }[]).map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(items.map((item) => item.id));
  });

  it("gives the same error as runQuery for a cursor of other arguments", () => {
    const context = createTestContext();
    const first = runQuery(
      JSON.parse(documentText),
      createRequest({ responsePath: "/data/items", pageSize: 5 }),
      context,
    );
    const cursor = pageOf(first).nextCursor;
    const request = createRequest({ responsePath: "/data/items", pageSize: 6, cursor });
    const partial = runPartialQuery(bytesOf(documentText), request, context);
    expect(partial?.isError).toBe(true);
    expect(partial).toEqual(fullAnswer(documentText, request, context));
  });

  it("reads keys as JSON.parse does: escapes, __proto__, and the last of duplicate keys", () => {
    const text =
      '{"d\\u0061ta": {"items": [1]}, "__proto__": {"items": [2, 3]}, "data": {"items": [4, 5, 6]}}';
    const context = createTestContext();
    for (const responsePath of ["/data/items", "/__proto__/items"]) {
      const request = createRequest({ responsePath });
      const partial = runPartialQuery(bytesOf(text), request, context);
      expect(partial).toBeDefined();
      expect(partial).toEqual(fullAnswer(text, request, context));
    }
    const duplicate = runPartialQuery(
      bytesOf(text),
      createRequest({ responsePath: "/data/items" }),
      context,
    );
    expect(pageOf(duplicate).response).toEqual([4, 5, 6]);
  });

  it("declines what it cannot answer from bytes, so the caller parses the whole document", () => {
    const context = createTestContext();
    const declined = [
      { responsePath: "/data/items", sort: [{ path: "/id" }] },
      { responsePath: "/data/items", aggregate: { groupBy: "/id" } },
      { responsePath: "/data", objectMode: "entries" },
      { responsePath: "/data/items", describe: true },
      { responsePath: "/data/items", textSearch: { query: "item" } },
      { jsonPath: "$.data.items[*]" },
      { responsePath: "/data" },
      { responsePath: "/data/items/0/tags" },
      { responsePath: "/missing" },
      { responsePath: "data/items" },
    ];
    for (const input of declined) {
      expect(runPartialQuery(bytesOf(documentText), createRequest(input), context)).toBeUndefined();
    }
    const text = createTestContext({ mediaType: "text/plain" });
    expect(
      runPartialQuery(bytesOf('{"lines":[]}'), createRequest({ responsePath: "/lines" }), text),
    ).toBeUndefined();
  });

  it("declines a path whose last duplicate key is not an array, as JSON.parse keeps that one", () => {
    const text = '{"a": [1, 2], "a": {"b": 2}}';
    const request = createRequest({ responsePath: "/a" });
    expect(runPartialQuery(bytesOf(text), request, createTestContext())).toBeUndefined();
    expect(pageOf(fullAnswer(text, request, createTestContext())).response).toEqual({ b: 2 });
  });

  it("declines text that is not one JSON value instead of guessing", () => {
    const request = createRequest({ responsePath: "/a" });
    for (const broken of ['{"a": [1, 2]', '{"a": [1, 2]} trailing', '{"a": ["open]}']) {
      expect(runPartialQuery(bytesOf(broken), request, createTestContext())).toBeUndefined();
    }
  });
});

const key = fc.constantFrom("a", "b", "items", "__proto__", "", "x/y", "t~n", "é", 'q"');
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8, unit: "grapheme" }),
  fc.constantFrom("x".repeat(600), '\\"', "]}[{,:"),
);
const { value: jsonValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: "document" },
    scalar,
    fc.array(tie("value"), { maxLength: 8, depthIdentifier: "document" }),
    fc.dictionary(key, tie("value"), { maxKeys: 5, depthIdentifier: "document" }),
  ),
}));

/** Pointers of every array reachable from the root through object keys only. */
function arrayPointers(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [prefix];
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((name) =>
    /^(?:0|[1-9][0-9]*)$/.test(name)
      ? []
      : arrayPointers(
          (value as Record<string, unknown>)[name],
          `${prefix}/${escapePointerToken(name)}`,
        ),
  );
}

describe("runPartialQuery, property", () => {
  it("answers every plain page of every array through objects exactly like runQuery", () => {
    fc.assert(
      fc.property(
        jsonValue,
        fc.constantFrom(0, 2),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 200, max: 4000 }),
        (value, indent, pageSize, inlineBytes) => {
          const text = JSON.stringify(value, null, indent) ?? "null";
          const parsed = JSON.parse(text) as unknown;
          const context = createTestContext({
            limits: { ...DEFAULT_LIMITS, inlineBytes },
          });
          for (const pointer of arrayPointers(parsed)) {
            let cursor: string | undefined;
            let pages = 0;
            do {
              const request = createRequest({
                responsePath: pointer,
                pageSize,
                ...(cursor === undefined ? {} : { cursor }),
              });
              const partial = runPartialQuery(bytesOf(text), request, context);
              const full = runQuery(parsed, request, context);
              expect(partial).toBeDefined();
              expect(partial).toEqual(full);
              cursor = pageOf(full).nextCursor;
              pages += 1;
            } while (cursor !== undefined && pages < 20);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
