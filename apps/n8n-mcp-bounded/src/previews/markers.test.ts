import { describe, expect, it } from "vitest";
import { cutText, entriesWithin, listWithin } from "./markers.js";

describe("the n8n preview markers", () => {
  it("lists the first items that fit, then counts the rest, of the total when given", () => {
    const items = ["aaaa", "bbbb", "cccc", "dddd"];
    expect(listWithin(items, 1000)).toEqual(items);
    expect(listWithin(items, 45)).toEqual(["aaaa", "bbbb", { _omittedItems: 2 }]);
    expect(listWithin(items, 3)).toEqual([{ _omittedItems: 4 }]);
    expect(listWithin(items, 1000, { limit: 1, total: 10 })).toEqual([
      "aaaa",
      { _omittedItems: 9 },
    ]);
  });

  it("keeps whole entries that fit and counts the others in _omittedKeys", () => {
    const entries = [
      ["a", [1, 2]],
      ["b", [3]],
      ["c", [4, 5, 6]],
    ] as const;
    expect(entriesWithin(entries, 1000)).toEqual({ a: [1, 2], b: [3], c: [4, 5, 6] });
    expect(entriesWithin(entries, 45)).toEqual({ a: [1, 2], _omittedKeys: 2 });
  });

  it("cuts text as the generic compaction does, never inside a surrogate pair", () => {
    expect(cutText("abcdef", 10)).toBe("abcdef");
    expect(cutText("abcdef", 3)).toBe("abc…[6 chars total]");
    expect(cutText("ab😀cd", 3)).toBe("ab…[6 chars total]");
  });
});
