import { DEFAULT_LIMITS, parseQueryRequest } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import type { QueryContext } from "../query/query-context.js";
import { type QueryOutcome, runQuery } from "../query/run-query.js";
import {
  ARTIFACT_ID,
  createRequest,
  createTestContext,
} from "../query/test-support/query-harness.js";
import { runPartialQuery } from "./run-partial-query.js";

// Random documents are written as JSON text directly (not by JSON.stringify), so they can hold
// what a parsed value cannot: duplicate keys, escaped keys and strings, inexact number literals.

type Node =
  | { kind: "literal"; text: string }
  | { kind: "array"; items: Node[] }
  | { kind: "object"; entries: [string, Node][] };

/** A key longer than the scanner's inline string walk (64 bytes), with an escape past it. */
const LONG_KEY = `${"k".repeat(62)}"\\${"k".repeat(5)}`;
const KEYS = ["a", "b", "n", "tags", "__proto__", "x/y", "é", 'q"', "constructor", LONG_KEY];
/** The keys most paths name come up more often, so most paths resolve on some item. */
const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "b", "n") },
  { weight: 3, arbitrary: fc.constantFrom(...KEYS) },
);

/** A key's JSON text: plain, or with every character written as a \u escape. */
const keyText = fc
  .tuple(key, fc.boolean())
  .map(([key, escaped]) =>
    escaped
      ? `"${[...key].map((char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`).join("")}"`
      : JSON.stringify(key),
  );

const stringText = fc
  .oneof(
    fc.constantFrom("Alpha", "alphabet", "beta", "", "ÄÖü 🙂", "İstanbul", "K", "x".repeat(300)),
    fc.string({ maxLength: 6, unit: "grapheme" }),
  )
  .map((text) => JSON.stringify(text));
const escapedStringText = fc.oneof(
  fc.constantFrom('"al\\u0070ha"', '"tab\\tquote\\"back\\\\"', '"\\ud83d\\ude42"'),
  // Escapes around the 64-byte end of the inline string walk, and runs of backslashes before the
  // closing quote past it (the native search's parity check).
  fc
    .tuple(fc.integer({ min: 60, max: 68 }), fc.constantFrom("\\", '"', "\\\\", "é\\"))
    .map(([length, tail]) => JSON.stringify(`${"s".repeat(length)}${tail}`)),
);
const numberText = fc.oneof(
  fc.integer({ min: -5, max: 5 }).map(String),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -100, max: 100 })
    .map((value) => JSON.stringify(value)),
  fc.constantFrom("1e400", "-0", "0.10000000000000000001", "12345678901234567891", "2.50", "1E2"),
);
const literal = fc
  .oneof(fc.constantFrom("null", "true", "false"), numberText, stringText, escapedStringText)
  .map((text): Node => ({ kind: "literal", text }));

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: "item" },
    literal,
    literal,
    fc
      .array(tie("node"), { maxLength: 4, depthIdentifier: "item" })
      .map((items): Node => ({ kind: "array", items })),
    fc
      .array(fc.tuple(keyText, tie("node")), { maxLength: 5, depthIdentifier: "item" })
      .map((entries): Node => ({ kind: "object", entries })),
  ),
}));

/** Items: mostly objects over the same few keys, so paths resolve on many of them. */
const item = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(keyText, node), { maxLength: 6 })
      .map((entries): Node => ({ kind: "object", entries })),
  },
  { weight: 1, arbitrary: node },
);

/**
 * Arrays of items drawn again and again from a pool of small objects that put the same few values
 * under the same few keys in other orders, so thin objects are shared between items
 * (SharedThinObjects): equal values under other keys, or in another order, must not share.
 */
const smallValue = fc
  .constantFrom("1", "2", '"x"', "true", "null", "1e400", "[1]", '{"a":1}', '{"b":"x","a":2}')
  .map((text): Node => ({ kind: "literal", text }));
const smallItem = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('"a"', '"b"', '"n"', '"\\u0061"') },
        { weight: 1, arbitrary: keyText },
      ),
      smallValue,
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((entries): Node => ({ kind: "object", entries }));
const repetitiveItems = fc
  .tuple(
    fc.array(smallItem, { minLength: 1, maxLength: 4 }),
    fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
  )
  .map(([pool, picks]) => picks.map((pick) => pool[pick % pool.length] as Node));

function write(value: Node, indent: string, depth: number): string {
  const pad = indent === "" ? "" : `\n${indent.repeat(depth + 1)}`;
  const close = indent === "" ? "" : `\n${indent.repeat(depth)}`;
  const colon = indent === "" ? ":" : ": ";
  if (value.kind === "literal") return value.text;
  if (value.kind === "array") {
    if (value.items.length === 0) return "[]";
    return `[${value.items.map((child) => pad + write(child, indent, depth + 1)).join(",")}${close}]`;
  }
  if (value.entries.length === 0) return "{}";
  return `{${value.entries.map(([key, child]) => `${pad}${key}${colon}${write(child, indent, depth + 1)}`).join(",")}${close}}`;
}

const PATHS = [
  "a",
  "/a",
  "/b",
  "/n/a",
  "/n/b",
  "/n/n/a",
  "/tags",
  "/tags/0",
  "/__proto__",
  "/__proto__/a",
  "x/y",
  "/x~1y",
  "/é",
  '/q"',
  "/constructor",
  `/${LONG_KEY}`,
  "",
];
const path = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("a", "/a", "/b", "/n/a", "/n") },
  { weight: 2, arbitrary: fc.constantFrom(...PATHS) },
);
const filterValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1, 2.5, 100, "Alpha", "alpha", "a", "", "🙂", "K", "i"),
  fc.constantFrom(`${"s".repeat(64)}\\`, `${"s".repeat(66)}"`),
  fc.integer({ min: -5, max: 5 }),
);
const leaf = fc.oneof(
  fc.record({
    path,
    op: fc.constantFrom("eq", "ne", "gt", "gte", "lt", "lte", "contains", "icontains"),
    value: filterValue,
  }),
  fc.record({
    path,
    op: fc.constantFrom("in", "nin"),
    value: fc.array(filterValue, { maxLength: 3 }),
  }),
  fc.record({ path, op: fc.constant("exists"), value: fc.boolean() }),
  fc.record({
    path,
    op: fc.constantFrom("eq", "gt", "lte"),
    value: fc.integer({ min: 0, max: 4 }),
    measure: fc.constant("length"),
  }),
);
const filter = fc.oneof(
  { weight: 4, arbitrary: leaf },
  {
    weight: 1,
    arbitrary: fc.array(leaf, { minLength: 2, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  },
);
const queryInput = fc
  .record(
    {
      fields: fc.uniqueArray(
        path.filter((field) => field !== ""),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
      filters: fc.array(filter, { minLength: 1, maxLength: 3 }),
      pageSize: fc.integer({ min: 1, max: 4 }),
    },
    { requiredKeys: ["pageSize"] },
  )
  .filter((input) => input.fields !== undefined || input.filters !== undefined);

function nextCursorOf(outcome: QueryOutcome): string | undefined {
  if (outcome.isError) return undefined;
  const meta = (outcome.result as { responseMeta: { nextCursor?: string | null } }).responseMeta;
  return meta.nextCursor ?? undefined;
}

/**
 * Checks that every page runPartialQuery gives, following every cursor, equals runQuery's on the
 * parsed document, for arrays of `elementsOf`; more than `minShare` of the pages asked must be
 * answered (not declined), so the property is not about declines only. The shares are set at
 * about half of what a run answers, as random runs spread (10 runs: 35-46% of the pages of the
 * first property, 16-33% of the thin objects'; the old 1/3 and 1/6 failed now and then), so the
 * check fails only when answers become rare.
 */
function checkAgainstRunQuery(elementsOf: fc.Arbitrary<Node[]>, minShare: number): void {
  let answered = 0;
  let asked = 0;
  fc.assert(
    fc.property(
      elementsOf,
      fc.constantFrom("", "  "),
      fc.boolean(),
      queryInput,
      fc.integer({ min: 300, max: 4000 }),
      (elements, indent, nested, input, inlineBytes) => {
        const array = write({ kind: "array", items: elements }, indent, nested ? 2 : 0);
        const text = nested ? `{"data": {"total": 1, "items": ${array}}, "after": [1]}` : array;
        const document = parseJsonExact(text);
        const context: QueryContext = createTestContext({
          responseRoot: nested ? "/data/items" : "",
          limits: { ...DEFAULT_LIMITS, inlineBytes },
        });
        const bytes = new TextEncoder().encode(text);
        // Values the contract rejects for their op (e.g. lte null) are not queries at all.
        fc.pre(parseQueryRequest({ artifactId: ARTIFACT_ID, ...input }).success);
        let cursor: string | undefined;
        let pages = 0;
        do {
          const request = createRequest({
            ...input,
            ...(cursor === undefined ? {} : { cursor }),
          });
          const full = runQuery(document, request, context);
          const partial = runPartialQuery(bytes, request, context);
          asked += 1;
          if (partial !== undefined) {
            answered += 1;
            expect(partial).toEqual(full);
            expect(JSON.stringify(partial.result)).toBe(JSON.stringify(full.result));
          }
          cursor = nextCursorOf(full);
          pages += 1;
        } while (cursor !== undefined && pages < 15);
      },
    ),
    { numRuns: 400 },
  );
  expect(answered).toBeGreaterThan(asked * minShare);
}

describe("runPartialQuery on fields and filters, property", () => {
  it("answers like runQuery on the parsed document, on every page, or declines", () => {
    checkAgainstRunQuery(fc.array(item, { maxLength: 12 }), 1 / 6);
  });

  it("answers like runQuery when items repeat a few small objects (shared thin objects)", () => {
    // Few keys over few items: more paths resolve on no item (declines) than above.
    checkAgainstRunQuery(repetitiveItems, 1 / 12);
  });
});
