import { describe, expect, it } from "vitest";
import { estimateHeapBytes } from "./heap-estimate.js";

const row = (index: number) => ({
  id: index,
  name: `item-${index}`,
  group: `g-${index % 16}`,
  score: (index * 7_919) % 1_000,
  tags: [`t-${index % 5}`, `t-${index % 7}`],
});

describe("estimateHeapBytes", () => {
  it("counts V8's 64-bit layout of scalars and strings", () => {
    expect(estimateHeapBytes(true)).toBe(0);
    expect(estimateHeapBytes(null)).toBe(0);
    expect(estimateHeapBytes(42)).toBe(0); // a Smi, held in its slot
    expect(estimateHeapBytes(0.5)).toBe(16); // a HeapNumber
    expect(estimateHeapBytes(2 ** 40)).toBe(16);
    expect(estimateHeapBytes("")).toBe(16);
    expect(estimateHeapBytes("abcdefghi")).toBe(32); // 16 + 9 characters rounded to 16
  });

  it("counts arrays and fast objects by header and slots", () => {
    expect(estimateHeapBytes([])).toBe(48);
    expect(estimateHeapBytes([1, 2, 3])).toBe(48 + 3 * 8);
    expect(estimateHeapBytes({ a: 1, b: "x" })).toBe(24 + 2 * 8 + 24);
  });

  it("scales a sample of a large array to the whole array", () => {
    const rows = Array.from({ length: 20_000 }, () => row(12_345));
    const one = estimateHeapBytes(row(12_345));
    const whole = estimateHeapBytes(rows);
    // Every row has the same layout, so the sampled estimate is the exact sum of the rows.
    expect(whole).toBe(48 + rows.length * 8 + rows.length * one);
  });

  it("counts a large keyed object as a dictionary with its own keys", () => {
    const keyed = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, index) => [`key-${index}`, { v: index % 1_000 }]),
    );
    const perText = estimateHeapBytes(keyed) / JSON.stringify(keyed).length;
    const rows = Array.from({ length: 10_000 }, (_, index) => ({
      ...row(index),
      note: `row ${index} ${"lorem ipsum ".repeat(4 + (index % 8))}`,
    }));
    const rowsPerText = estimateHeapBytes(rows) / JSON.stringify(rows).length;
    const strings = Array.from({ length: 2_000 }, (_, index) => `line ${index} ${"x".repeat(300)}`);
    const stringsPerText = estimateHeapBytes(strings) / JSON.stringify(strings).length;
    // The order and the rough factors V8 shows for these shapes (packages/mcp-adapter/bench/parse-heap.mjs):
    // keyed objects 3.5-4.1x, node arrays 1.5-1.7x, strings 1.07x (the estimate is 1.0-1.25x that).
    expect(perText).toBeGreaterThan(3);
    expect(perText).toBeLessThan(6);
    expect(rowsPerText).toBeGreaterThan(1.2);
    expect(rowsPerText).toBeLessThan(perText);
    expect(stringsPerText).toBeGreaterThan(1);
    expect(stringsPerText).toBeLessThan(1.2);
  });

  it("stays bounded on a document wider and deeper than its node budget", () => {
    const cube = Array.from({ length: 100 }, () =>
      Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, index) => `s${index}`)),
    );
    const estimate = estimateHeapBytes(cube);
    expect(Number.isFinite(estimate)).toBe(true);
    // At least the slots of the three levels of arrays and the strings' headers.
    expect(estimate).toBeGreaterThan(100 * 100 * 100 * (8 + 16));
    let deep: unknown = "leaf";
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    // No recursion: a chain 100,000 deep is walked to its budget, the rest counted as unseen.
    expect(estimateHeapBytes(deep)).toBeGreaterThan(4_000 * 56);
  });
});
