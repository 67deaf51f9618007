import {
  DEFAULT_LIMITS,
  ERROR_CODE_LIST,
  FILTER_OPS,
  parseQueryRequest,
  type QueryRequest,
  QueryToolOutputSchema,
} from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runQuery } from "./run-query.js";
import { ARTIFACT_ID, createTestContext } from "./test-support/query-harness.js";

const key = fc.constantFrom("a", "b", "id", "name", "__proto__", "", "x/y", "0");
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom("a", "ab", "Node", "NODE a", "x".repeat(300)),
  fc.string({ maxLength: 6 }),
);
const { value: jsonDocument } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthIdentifier: "document" },
    scalar,
    fc.array(tie("value"), { maxLength: 6, depthIdentifier: "document" }),
    fc.dictionary(key, tie("value"), { maxKeys: 5, depthIdentifier: "document" }),
  ),
}));
/** A parsed JSON document, as the engine receives it (own `__proto__` keys are data). */
const document = jsonDocument.map(
  (value) => JSON.parse(JSON.stringify(value) ?? "null") as unknown,
);
const path = fc.oneof(
  { arbitrary: fc.constantFrom("", "/a", "/0", "/a/0", "/id", "a", "id", "/__proto__"), weight: 6 },
  { arbitrary: fc.constantFrom("/", "/a/b", "/x~1y", "/~2", "/a/-", "/0/a/0"), weight: 2 },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
const filter = fc.record(
  {
    path,
    op: fc.constantFrom(...FILTER_OPS),
    value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
  },
  { requiredKeys: ["path"] },
);
const requestInput = fc.record(
  {
    responsePath: path,
    describe: fc.boolean(),
    objectMode: fc.constant("entries"),
    fields: fc.array(path, { maxLength: 3 }),
    filters: fc.array(filter, { maxLength: 2 }),
    textSearch: fc.record(
      { query: fc.constantFrom("a", "node", "X", "é"), caseSensitive: fc.boolean() },
      { requiredKeys: ["query"] },
    ),
    pageSize: fc.integer({ min: 1, max: 7 }),
    jsonPath: fc.constantFrom(
      "$",
      "$.a",
      "$..*",
      "$[0]",
      "$.*.id",
      "$..[?(@.a)]",
      "$[(1)]",
      "$.a[0:2]",
      "$..id",
    ),
  },
  { requiredKeys: [] },
);
const inlineBytes = fc.constantFrom(1_500, 4_096, DEFAULT_LIMITS.inlineBytes);

function parse(input: Record<string, unknown>): QueryRequest | null {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  return parsed.success ? parsed.data : null;
}

function run(documentValue: unknown, request: QueryRequest, budget: number) {
  const context = createTestContext({ limits: { ...DEFAULT_LIMITS, inlineBytes: budget } });
  const outcome = runQuery(documentValue, request, context);
  return { outcome, bytes: Buffer.byteLength(JSON.stringify(outcome.result)) };
}

describe("runQuery properties", { timeout: 60_000 }, () => {
  it("(a) answers any document and any request with a result or a contract error, (c) within budget", () => {
    fc.assert(
      fc.property(document, requestInput, inlineBytes, (documentValue, input, budget) => {
        const request = parse(input);
        fc.pre(request !== null);
        const { outcome, bytes } = run(documentValue, request as QueryRequest, budget);
        expect(QueryToolOutputSchema.safeParse(outcome.result).success).toBe(true);
        if (outcome.isError) {
          const error = (outcome.result.response as { error: { code: string } }).error;
          expect(ERROR_CODE_LIST).toContain(error.code);
          expect(bytes).toBeLessThanOrEqual(DEFAULT_LIMITS.maxErrorEnvelopeBytes);
        } else {
          expect(bytes).toBeLessThanOrEqual(budget);
          expect(outcome.result.responseMeta.serializedBytes).toBe(bytes);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("(b) following nextCursor visits every selected item exactly once; totalCount equals the visits", () => {
    const rows = fc.array(
      fc.record({
        v: fc.integer({ min: 0, max: 4 }),
        body: fc.constantFrom("", "short", "x".repeat(700), "y".repeat(3000)),
      }),
      { maxLength: 40 },
    );
    const mode = fc.constantFrom("items", "filtered", "entries", "matches", "keys");
    fc.assert(
      fc.property(
        rows,
        mode,
        fc.integer({ min: 1, max: 9 }),
        inlineBytes,
        (items, kind, pageSize, budget) => {
          const numbered = items.map((item, index) => ({ index, ...item }));
          const keyed = Object.fromEntries(numbered.map((item) => [`k${item.index}`, item]));
          const documentValue = { rows: numbered, keyed };
          const input: Record<string, unknown> = { pageSize };
          let expected: unknown[];
          if (kind === "entries" || kind === "keys") {
            input.responsePath = "/keyed";
            if (kind === "keys") input.describe = true;
            expected = Object.keys(keyed);
          } else if (kind === "matches") {
            input.responsePath = "/rows";
            input.textSearch = { query: "short" };
            expected = numbered
              .filter((item) => item.body === "short")
              .map((item) => `/rows/${item.index}/body`);
          } else {
            input.responsePath = "/rows";
            if (kind === "filtered") input.filters = [{ path: "/v", op: "gte", value: 2 }];
            expected = numbered
              .filter((item) => kind === "items" || item.v >= 2)
              .map((item) => item.index);
          }
          const visited: unknown[] = [];
          const totals = new Set<number>();
          let cursor: string | undefined;
          for (let page = 0; page < 200; page += 1) {
            const request = parse(
              cursor === undefined ? input : { ...input, cursor },
            ) as QueryRequest;
            const { outcome, bytes } = run(documentValue, request, budget);
            expect(outcome.isError).toBe(false);
            expect(bytes).toBeLessThanOrEqual(budget);
            // biome-ignore lint/suspicious/noExplicitAny: reads the page of any unit.
            const result = outcome.result as any;
            totals.add(result.responseMeta.totalCount);
            if (kind === "entries") visited.push(...Object.keys(result.response));
            else if (kind === "keys")
              visited.push(...result.shape.keys.map((entry: { name: string }) => entry.name));
            else if (kind === "matches")
              visited.push(...result.response.map((match: { pointer: string }) => match.pointer));
            else visited.push(...result.response.map((item: { index: number }) => item.index));
            cursor = result.responseMeta.nextCursor ?? undefined;
            if (cursor === undefined) break;
          }
          expect(visited).toEqual(expected);
          expect([...totals]).toEqual([expected.length]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("answers every OBJECT_MODE_REQUIRED suggestedRequest when it is sent back", () => {
    const entry = fc.dictionary(fc.constantFrom("id", "type", "name", "x/y"), scalar, {
      maxKeys: 3,
    });
    const keyed = fc.dictionary(
      fc.constantFrom("alpha", "beta", "gamma", "__proto__", "a/b"),
      entry,
      {
        minKeys: 2,
        maxKeys: 5,
      },
    );
    const filters = fc.array(
      fc.record({
        path: fc.constantFrom("/id", "/type", "/from", "name"),
        op: fc.constantFrom("eq", "ne", "contains", "exists"),
        value: scalar,
      }),
      { maxLength: 2 },
    );
    const fields = fc.array(fc.constantFrom("id", "/type", "name", "x/y", "/missing"), {
      maxLength: 3,
    });
    const sort = fc.option(
      fc.array(
        fc.record({
          path: fc.constantFrom("/id", "/type", "name", "/missing"),
          order: fc.constantFrom("asc", "desc"),
        }),
        { minLength: 1, maxLength: 2 },
      ),
      { nil: undefined },
    );
    const groupBy = fc.option(
      fc.oneof(fc.constantFrom("/type", "name", "/missing"), fc.constant(["/missing", "/absent"])),
      { nil: undefined },
    );
    let suggestions = 0;
    fc.assert(
      fc.property(
        keyed,
        fields,
        filters,
        sort,
        groupBy,
        (object, fieldList, filterList, keys, by) => {
          const documentValue = JSON.parse(JSON.stringify({ map: object })) as unknown;
          const input: Record<string, unknown> = {
            responsePath: "/map",
            fields: fieldList,
            filters: filterList.map((item) =>
              item.op === "exists" ? { path: item.path, op: item.op } : item,
            ),
          };
          if (by !== undefined) {
            // Rows instead of items: no fields, and a sort names a row label.
            delete input.fields;
            input.aggregate = {
              groupBy: by,
              metrics: [{ op: "count" }, { op: "max", path: "/id" }, { op: "max", path: "/gone" }],
            };
            const label = typeof by === "string" ? by : (by[0] as string);
            if (keys !== undefined) {
              input.sort = [{ path: "max(/id)", order: "desc" }, { path: label }];
            }
          } else if (keys !== undefined) input.sort = keys;
          const request = parse(input);
          fc.pre(
            request !== null &&
              (fieldList.length > 0 ||
                filterList.length > 0 ||
                keys !== undefined ||
                by !== undefined),
          );
          const { outcome } = run(
            documentValue,
            request as QueryRequest,
            DEFAULT_LIMITS.inlineBytes,
          );
          const error = (
            outcome.result.response as {
              error?: { code: string; details: { suggestedRequest: Record<string, unknown> } };
            }
          ).error;
          if (error?.code !== "OBJECT_MODE_REQUIRED") return;
          suggestions += 1;
          const suggested = parse(error.details.suggestedRequest);
          expect(suggested).not.toBeNull();
          expect(
            run(documentValue, suggested as QueryRequest, DEFAULT_LIMITS.inlineBytes).outcome
              .isError,
          ).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
    expect(suggestions).toBeGreaterThan(0);
  });

  it("(e) rejects a cursor sent back with any view argument changed", () => {
    const change = fc.constantFrom(
      "pageSize",
      "responsePath",
      "fields",
      "filters",
      "describe",
      "textSearch",
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 30 }),
        fc.integer({ min: 1, max: 2 }),
        change,
        (count, pageSize, changed) => {
          const documentValue = {
            rows: Array.from({ length: count }, (_, index) => ({
              id: index,
              name: `node ${index}`,
            })),
            other: [],
          };
          const input: Record<string, unknown> = {
            responsePath: "/rows",
            pageSize,
            fields: ["id", "name"],
          };
          const first = run(
            documentValue,
            parse(input) as QueryRequest,
            DEFAULT_LIMITS.inlineBytes,
          );
          const cursor = (first.outcome.result.responseMeta as { nextCursor: string }).nextCursor;
          const altered: Record<string, unknown> = { ...input, cursor };
          if (changed === "pageSize") altered.pageSize = pageSize + 1;
          if (changed === "responsePath") altered.responsePath = "/rows/";
          if (changed === "fields") altered.fields = ["id"];
          if (changed === "filters") altered.filters = [{ path: "/id", op: "gte", value: 0 }];
          if (changed === "describe") {
            delete altered.fields;
            altered.describe = true;
          }
          if (changed === "textSearch") {
            delete altered.fields;
            altered.textSearch = { query: "node" };
          }
          const { outcome } = run(
            documentValue,
            parse(altered) as QueryRequest,
            DEFAULT_LIMITS.inlineBytes,
          );
          expect(outcome.result.response).toEqual({
            error: expect.objectContaining({
              code: "INVALID_RESPONSE_CURSOR",
              details: { reason: "mismatch" },
            }),
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
