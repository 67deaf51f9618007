import { describe, expect, it } from "vitest";
import { estimateJsonBytes, keysOf } from "./estimate-bytes.js";

const jsonLength = (value: unknown) => JSON.stringify(value).length;

describe("estimateJsonBytes", () => {
  it("is exact for small ASCII values it can see entirely", () => {
    const value = { a: [1, "xy", true, null, -2.5], b: { c: false, d: [] }, e: {} };
    expect(estimateJsonBytes(value, 1000)).toBe(jsonLength(value));
  });

  it("stays within 10% on a large homogeneous array measured on samples", () => {
    const items = Array.from({ length: 20_000 }, (_, index) => ({
      id: `item-${index}`,
      tags: ["a", "b", "c"],
      nested: { value: index * 3, label: "x".repeat(index % 50) },
    }));
    const estimate = estimateJsonBytes(items, 2000);
    expect(Math.abs(estimate - jsonLength(items)) / jsonLength(items)).toBeLessThan(0.1);
  });

  it("is deterministic", () => {
    const items = Array.from({ length: 5000 }, (_, index) => ({ text: "y".repeat(index % 97) }));
    expect(estimateJsonBytes(items, 300)).toBe(estimateJsonBytes(structuredClone(items), 300));
  });
});

describe("keysOf", () => {
  it("remembers the key list of a large object and lists a small one afresh", () => {
    const large = Object.fromEntries(
      Array.from({ length: 1024 }, (_, index) => [`k${index}`, index]),
    );
    const small = { a: 1, b: 2 };
    expect(keysOf(large)).toBe(keysOf(large));
    expect(Object.isFrozen(keysOf(large))).toBe(true);
    expect(keysOf(small)).toEqual(["a", "b"]);
    expect(keysOf(small)).not.toBe(keysOf(small));
  });
});
