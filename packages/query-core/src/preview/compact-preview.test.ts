import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonBytes } from "../query/json-values.js";
import { compactPreview, compactWithLimits, PREVIEW_LADDER } from "./compact-preview.js";

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));

describe("compactPreview", () => {
  it("returns a value that already fits unchanged", () => {
    const value = { id: 1, name: "small", tags: ["a", "b"], nested: { deep: [true, null] } };
    expect(roundTrip(compactPreview(value, 1024))).toEqual(value);
  });

  it("marks omitted array items, object keys and string characters in place", () => {
    const limits = { depth: 3, items: 2, keys: 2, chars: 5, nodes: 100 };
    const value = {
      list: [1, 2, 3, 4],
      text: "abcdefghij",
      extra: "dropped",
    };
    expect(roundTrip(compactWithLimits(value, limits))).toEqual({
      list: [1, 2, { _omittedItems: 2 }],
      text: "abcde…[10 chars total]",
      _omittedKeys: 1,
    });
  });

  it("replaces containers below the depth limit with their markers", () => {
    const limits = { depth: 1, items: 10, keys: 10, chars: 50, nodes: 100 };
    expect(
      roundTrip(compactWithLimits({ a: [1, 2, 3], b: { c: 1 }, d: [], e: {} }, limits)),
    ).toEqual({ a: [{ _omittedItems: 3 }], b: { _omittedKeys: 1 }, d: [], e: {} });
  });

  it("stops at the node budget, depth first, and counts what it left out", () => {
    const limits = { depth: 5, items: 10, keys: 10, chars: 50, nodes: 4 };
    expect(roundTrip(compactWithLimits([[1, 2, 3], [4], [5]], limits))).toEqual([
      [1, 2, 3],
      { _omittedItems: 2 },
    ]);
    expect(roundTrip(compactWithLimits({ a: [1, 2, 3], b: 4 }, { ...limits, nodes: 3 }))).toEqual({
      a: [1, 2, { _omittedItems: 1 }],
      _omittedKeys: 1,
    });
  });

  it("never cuts a surrogate pair", () => {
    const limits = { depth: 1, items: 1, keys: 1, chars: 2, nodes: 10 };
    expect(compactWithLimits("a😀b", limits)).toBe("a…[4 chars total]");
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const compacted = compactPreview(value, 1024);
    expect(JSON.stringify(compacted)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("turns non-JSON values into null", () => {
    expect(
      roundTrip(compactPreview([undefined, Number.NaN, Number.POSITIVE_INFINITY], 100)),
    ).toEqual([null, null, null]);
  });

  it("walks down the ladder until the result fits", () => {
    const value = Array.from({ length: 500 }, (_, index) => ({
      index,
      text: "x".repeat(2000),
    }));
    const compacted = compactPreview(value, 2000);
    expect(jsonBytes(compacted)).toBeLessThanOrEqual(2000);
    expect(jsonBytes(compacted)).toBeGreaterThan(1000);
    expect((compacted as unknown[]).at(-1)).toEqual({
      _omittedItems: 500 - (compacted as unknown[]).length + 1,
    });
  });

  it("returns the tiny marker when not even the last rung fits", () => {
    expect(
      roundTrip(
        compactPreview(
          Array.from({ length: 99 }, () => "y".repeat(99)),
          10,
        ),
      ),
    ).toEqual([{ _omittedItems: 99 }]);
    expect(roundTrip(compactPreview({ a: "y".repeat(99), b: 1 }, 10))).toEqual({ _omittedKeys: 2 });
  });

  it("has a ladder whose rungs only get tighter", () => {
    for (let index = 1; index < PREVIEW_LADDER.length; index++) {
      const [previous, current] = [PREVIEW_LADDER[index - 1]!, PREVIEW_LADDER[index]!];
      for (const limit of ["depth", "items", "keys", "chars", "nodes"] as const) {
        expect(current[limit]).toBeLessThanOrEqual(previous[limit]);
      }
    }
  });
});

describe("compactPreview properties", () => {
  it("is byte-identical across runs and fits maxBytes for any JSON (maxBytes >= 64)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 64, max: 4096 }), (value, maxBytes) => {
        const first = JSON.stringify(compactPreview(value, maxBytes));
        const second = JSON.stringify(compactPreview(structuredClone(value), maxBytes));
        expect(second).toBe(first);
        expect(Buffer.byteLength(first)).toBeLessThanOrEqual(maxBytes);
      }),
      { numRuns: 300 },
    );
  });

  it("fits maxBytes for wide and deep JSON with long multi-byte strings", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 400 });
    const wide = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        text,
        fc.double(),
        fc.array(tie("value"), { maxLength: 60 }),
        fc.dictionary(text, tie("value"), { maxKeys: 60 }),
      ),
    })).value;
    fc.assert(
      fc.property(wide, fc.integer({ min: 64, max: 8192 }), (value, maxBytes) => {
        const compacted = JSON.stringify(compactPreview(value, maxBytes));
        expect(Buffer.byteLength(compacted)).toBeLessThanOrEqual(maxBytes);
        expect(JSON.stringify(compactPreview(value, maxBytes))).toBe(compacted);
      }),
      { numRuns: 100 },
    );
  });

  it("only ever keeps a prefix of each array with a trailing count (never cut JSON)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { minLength: 1, maxLength: 300 }), (items) => {
        const compacted = compactPreview(items, 200) as unknown[];
        const last = compacted.at(-1) as { _omittedItems?: number };
        const kept = typeof last === "object" ? compacted.slice(0, -1) : compacted;
        expect(kept).toEqual(items.slice(0, kept.length));
        expect(kept.length + (last._omittedItems ?? 0)).toBe(items.length);
      }),
    );
  });
});
