import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { canonicalJson } from "./canonical-json.js";
import { query } from "./test-support/query-harness.js";

/** The recursive definition canonicalJson replaced (exact numbers written by their literal). */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`);
  return `{${members.join(",")}}`;
}

/** `[[[...[1]...]]]`, `depth` arrays deep, and `{"a":{"a":...1}}`, as JSON text. */
const deepArrays = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("canonicalJson", () => {
  it("equals the recursive definition on any JSON value (keys sorted, undefined members left out)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (value, other) => {
        const withUndefined = { value, other, gone: undefined };
        expect(canonicalJson(value)).toBe(reference(value));
        expect(canonicalJson(withUndefined)).toBe(reference(withUndefined));
        expect(canonicalJson([value, undefined, other])).toBe(reference([value, null, other]));
      }),
      { numRuns: 500 },
    );
  });

  it("writes an inexact number by its exact value, at any depth", () => {
    const parsed = parseJsonExact('{"b":[12345678901234567890,-0],"a":{"x":1e400}}');
    expect(canonicalJson(parsed)).toMatchInlineSnapshot(
      `"{"a":{"x":0.1e401},"b":[0.1234567890123456789e20,0]}"`,
    );
  });

  it("writes values nested far deeper than the call stack allows (V8's JSON.parse takes them)", () => {
    for (const text of [deepArrays(100_000), deepObjects(100_000)]) {
      expect(canonicalJson(JSON.parse(text))).toBe(text);
    }
  });

  it("groups, counts distinct and sorts entries whose values are nested 5,000 levels deep", () => {
    const document = {
      deep: JSON.parse(deepArrays(5_000)),
      also: JSON.parse(deepArrays(5_000)),
      other: JSON.parse(deepObjects(5_000)),
    };
    const entries = { responsePath: "", objectMode: "entries" } as const;
    const grouped = query(document, {
      ...entries,
      aggregate: { metrics: [{ op: "count" }, { op: "countDistinct", path: "/value" }] },
    });
    const sorted = query(document, { ...entries, sort: [{ path: "/value" }], fields: ["key"] });
    expect({
      grouped: grouped.result.response,
      sorted: sorted.result.response,
    }).toEqual({
      grouped: [{ count: 3, "countDistinct(/value)": 2 }],
      sorted: [{ key: "deep" }, { key: "also" }, { key: "other" }],
    });
  });
});
