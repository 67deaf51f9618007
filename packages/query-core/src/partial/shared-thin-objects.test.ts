import { describe, expect, it } from "vitest";
import { ExactNumber } from "../exact/exact-number.js";
import { materializeItems, pathTreeOf } from "./materialize-items.js";
import { SharedThinObjects } from "./shared-thin-objects.js";

const bytesOf = (text: string) => new TextEncoder().encode(text);
const filterPaths = (...keys: string[]) =>
  pathTreeOf(keys.map((key) => ({ tokens: [key], filter: true })));

function itemsOf(text: string, ...keys: string[]): unknown[] {
  const scanned = materializeItems(bytesOf(text), [], filterPaths(...keys), false);
  if (scanned === undefined) throw new Error("not an array");
  return scanned.items;
}

describe("SharedThinObjects (thin objects shared between items)", () => {
  it("shares one object between items with the same values under the same keys in order", () => {
    const items = itemsOf(
      JSON.stringify([
        { type: "set", id: 1, disabled: false },
        { type: "http", id: 2, disabled: false },
        { id: 3, type: "set", disabled: false, other: [1] },
        { disabled: false, type: "set" },
        { type: "set", disabled: true },
        { type: "set", disabled: false },
      ]),
      "type",
      "disabled",
    );
    expect(items).toEqual([
      { type: "set", disabled: false },
      { type: "http", disabled: false },
      { type: "set", disabled: false },
      { disabled: false, type: "set" },
      { type: "set", disabled: true },
      { type: "set", disabled: false },
    ]);
    expect(items[2]).toBe(items[0]);
    expect(items[5]).toBe(items[0]);
    // Another key order is another object (its keys enumerate in another order).
    expect(items[3]).not.toBe(items[0]);
    expect(Object.keys(items[3] as object)).toEqual(["disabled", "type"]);
    expect(items[1]).not.toBe(items[0]);
    expect(items[4]).not.toBe(items[0]);
  });

  it("never shares between the same value bytes under other keys or with more keys", () => {
    const items = itemsOf('[{"a":1},{"b":1},{"a":1,"b":1},{"a":1},{"b":1}]', "a", "b");
    expect(items).toEqual([{ a: 1 }, { b: 1 }, { a: 1, b: 1 }, { a: 1 }, { b: 1 }]);
    expect(items[3]).toBe(items[0]);
    expect(items[4]).toBe(items[1]);
    expect(items[1]).not.toBe(items[0]);
  });

  it("shares by the bytes of the values: an escaped string is its own entry, equal in value", () => {
    const items = itemsOf('[{"type":"set"},{"type":"s\\u0065t"},{"type":"s\\u0065t"}]', "type");
    expect(items).toEqual([{ type: "set" }, { type: "set" }, { type: "set" }]);
    expect(items[1]).not.toBe(items[0]);
    expect(items[2]).toBe(items[1]);
  });

  it("keeps the last of duplicate keys and __proto__ as data in a shared object", () => {
    const items = itemsOf(
      '[{"a":1,"a":2,"__proto__":3},{"a":1,"a":2,"__proto__":3},{"a":2,"__proto__":3}]',
      "a",
      "__proto__",
    );
    expect(items[1]).toBe(items[0]);
    expect(items[2]).not.toBe(items[0]);
    for (const item of items) {
      expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
      expect(Object.entries(item as object)).toEqual([
        ["a", 2],
        ["__proto__", 3],
      ]);
    }
  });

  it("never shares an object holding an ExactNumber, an array or an object", () => {
    const items = itemsOf(
      '[{"n":1e400},{"n":1e400},{"n":[1]},{"n":[1]},{"n":{"m":1}},{"n":{"m":1}},{"n":7},{"n":7}]',
      "n",
    );
    expect((items[0] as { n: unknown }).n).toBeInstanceOf(ExactNumber);
    expect(items[1]).not.toBe(items[0]);
    expect(items[3]).not.toBe(items[2]);
    expect(items[5]).not.toBe(items[4]);
    expect(items[7]).toBe(items[6]);
    expect(items.slice(2, 6)).toEqual([{ n: [1] }, { n: [1] }, { n: { m: 1 } }, { n: { m: 1 } }]);
  });

  it("stops sharing for good once misses outrun hits, and then builds every object", () => {
    const text = JSON.stringify(
      Array.from({ length: 600 }, (_, index) => ({ id: index < 500 ? `n${index}` : "same" })),
    );
    const items = itemsOf(text, "id");
    expect(items).toEqual(JSON.parse(text));
    // Past the give-up point even the repeated tail is built item by item.
    expect(items[599]).not.toBe(items[598]);
    const shared = new SharedThinObjects();
    const bytes = bytesOf('"a""b"');
    const values = { ids: [1], starts: [0], ends: [3], count: 1 };
    expect(shared.find(bytes, values)).toBeUndefined();
    shared.offer(bytes, values, { k: "a" });
    expect(shared.find(bytes, values)).toEqual({ k: "a" });
    expect(shared.find(bytes, { ...values, starts: [3], ends: [6] })).toBeUndefined();
    expect(shared.find(bytes, { ...values, ids: [2] })).toBeUndefined();
    expect(shared.on).toBe(true);
  });
});
