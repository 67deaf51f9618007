import { describe, expect, it } from "vitest";
import { estimateHeapBytes } from "./heap-estimate.js";
import { createParseCache } from "./parse-cache.js";

describe("createParseCache", () => {
  it("counts an entry's weight, not its serialized bytes, when weigh is given", () => {
    const cache = createParseCache<{ heap: number }>({
      maxBytes: 1_000,
      weigh: (value) => value.heap,
    });
    cache.set("a", { heap: 400 }, 100);
    cache.set("b", { heap: 400 }, 100);
    expect(cache.counters()).toEqual({ hits: 0, misses: 0, entries: 2, bytes: 800 });
    // 300 serialized bytes would fit a text budget of 1,000 three times over; 400 of heap do not.
    cache.set("c", { heap: 400 }, 100);
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("b")).toEqual({ heap: 400 });
    expect(cache.peek("c")).toEqual({ heap: 400 });
    expect(cache.counters().bytes).toBe(800);
  });

  it("evicts the least recently used entry by weight", () => {
    const cache = createParseCache<{ heap: number }>({ maxBytes: 1_000, weigh: (v) => v.heap });
    cache.set("a", { heap: 400 }, 10);
    cache.set("b", { heap: 400 }, 10);
    expect(cache.get("a")).toEqual({ heap: 400 });
    cache.set("c", { heap: 400 }, 10);
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBeDefined();
    expect(cache.counters()).toEqual({ hits: 1, misses: 0, entries: 2, bytes: 800 });
  });

  it("keeps no entry whose weight passes the whole budget, though its text fits", () => {
    const cache = createParseCache<{ heap: number }>({ maxBytes: 1_000, weigh: (v) => v.heap });
    expect(cache.accepts(600)).toBe(true);
    cache.set("big", { heap: 2_400 }, 600);
    expect(cache.peek("big")).toBeUndefined();
    expect(cache.counters()).toEqual({ hits: 0, misses: 0, entries: 0, bytes: 0 });
    expect(cache.accepts(1_001)).toBe(false);
  });

  it("counts serialized bytes without weigh", () => {
    const cache = createParseCache<string>({ maxBytes: 250 });
    cache.set("a", "x", 100);
    cache.set("b", "y", 100);
    cache.set("c", "z", 100);
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.counters()).toEqual({ hits: 0, misses: 0, entries: 2, bytes: 200 });
  });

  it("replacing an entry replaces its weight", () => {
    const cache = createParseCache<{ heap: number }>({ maxBytes: 1_000, weigh: (v) => v.heap });
    cache.set("a", { heap: 300 }, 10);
    cache.set("a", { heap: 500 }, 10);
    cache.delete("missing");
    expect(cache.counters()).toEqual({ hits: 0, misses: 0, entries: 1, bytes: 500 });
    cache.clear();
    expect(cache.counters().bytes).toBe(0);
  });

  it("with estimateHeapBytes, a keyed document weighs more than a string one of the same text", () => {
    const keyed = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, index) => [`key-${index}`, { v: index % 1_000 }]),
    );
    const text = ["x".repeat(JSON.stringify(keyed).length - 4)];
    const keyedBytes = JSON.stringify(keyed).length;
    expect(JSON.stringify(text).length).toBe(keyedBytes);
    const cache = createParseCache<unknown>({
      maxBytes: keyedBytes * 2,
      weigh: (value) => estimateHeapBytes(value),
    });
    cache.set("text", text, keyedBytes);
    cache.set("keyed", keyed, keyedBytes);
    expect(cache.peek("text")).toBe(text);
    // The keyed document's heap (about 4x its text, see heap-estimate.test.ts) passes 2x.
    expect(cache.peek("keyed")).toBeUndefined();
  });
});
