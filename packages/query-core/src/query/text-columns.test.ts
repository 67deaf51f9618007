import type { Filter } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { createViewCache } from "../views/view-cache.js";
import { viewSlotOf } from "../views/view-slot.js";
import { compileFilterPath } from "./compiled-path.js";
import { applyFilters, compileFilters, createFilterScan, type FilterOutcome } from "./filters.js";
import { type ColumnStore, columnStoreOf } from "./path-columns.js";
import { keptTextColumn, type TextColumn, textColumnBytes } from "./text-columns.js";

function scanWith(list: readonly unknown[], filters: Filter[], store: ColumnStore | null) {
  const scan = createFilterScan(list, compileFilters(filters), store);
  for (let start = 0; start < list.length; start += 1_000) {
    scan.scan(start, Math.min(list.length, start + 1_000));
  }
  return scan.finish();
}

const list = Array.from({ length: 5_000 }, (_, index) => ({
  name: index % 9 === 0 ? [`Tag ${index}`, index] : `Node ${index}`,
  parameters: index % 5 === 0 ? { url: `https://x/resource/${index}` } : { mode: "x" },
}));
const question = (name: string, url: string): Filter[] => [
  {
    anyOf: [
      { path: "/name", op: "icontains", value: name },
      { path: "/parameters/url", op: "icontains", value: url },
    ],
  },
];
const plain = (filters: Filter[]): FilterOutcome => applyFilters(list, compileFilters(filters));

describe("text columns", () => {
  it("are kept by a first question and searched by later ones, with the loops' outcome", () => {
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, list, "view"));
    expect(scanWith(list, question("node 12", "resource/31"), store)).toEqual(
      plain(question("node 12", "resource/31")),
    );
    expect(cache.size).toBe(2);
    const held = cache.bytes;
    const names = keptTextColumn(store as ColumnStore, list, compileFilterPath("/name"));
    const urls = keptTextColumn(store as ColumnStore, list, compileFilterPath("/parameters/url"));
    // Each string of the path (array elements that are strings too), in item order.
    const strings = list.flatMap((item) =>
      Array.isArray(item.name) ? item.name.filter((x) => typeof x === "string") : [item.name],
    );
    expect(names?.text).toBe(strings.join("\n"));
    expect(names?.owners.length).toBe(strings.length);
    expect(urls?.text).toBe(
      list
        .flatMap((item) => (item.parameters.url === undefined ? [] : [item.parameters.url]))
        .join("\n"),
    );
    const bytes = textColumnBytes(names as TextColumn) + textColumnBytes(urls as TextColumn);
    expect(held).toBe(bytes);
    expect(held).toBeGreaterThan(2 * ((names?.text.length ?? 0) + (urls?.text.length ?? 0)));
    for (const [name, url] of [
      ["TAG 9", "RESOURCE/4"],
      ["node 4", "zzz"],
      ["e", "/"],
      ["\n", "0\nn"],
    ] as const) {
      expect(scanWith(list, question(name, url), store)).toEqual(plain(question(name, url)));
    }
    expect([cache.size, cache.bytes]).toEqual([2, held]);
  });

  it("join each range's strings into a piece: ranges without strings add no separator", () => {
    // Items 1500 to 3499 have no name: with ranges of 1000 items, ranges 2 and 3 lay out nothing.
    const gappy = list.map((item, index) =>
      index >= 1_500 && index < 3_500 ? { parameters: item.parameters } : item,
    );
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, gappy, "view"));
    const ask = (name: string, url: string) => [
      scanWith(gappy, question(name, url), store),
      applyFilters(gappy, compileFilters(question(name, url))),
    ];
    const [first, loops] = ask("node 4", "resource/2");
    expect(first).toEqual(loops);
    const names = keptTextColumn(store as ColumnStore, gappy, compileFilterPath("/name"));
    const strings = gappy.flatMap((item) =>
      "name" in item
        ? Array.isArray(item.name)
          ? item.name.filter((x) => typeof x === "string")
          : [item.name]
        : [],
    );
    expect(names?.text).toBe(strings.join("\n"));
    expect(names?.starts[strings.length]).toBe((names?.text.length ?? 0) + 1);
    // Each string's start points at it (a wrong start would shift every match after it).
    for (const at of [0, 1_499, 1_500, strings.length - 1]) {
      const start = names?.starts[at] ?? -1;
      expect(names?.text.slice(start, start + (strings[at]?.length ?? 0))).toBe(strings[at]);
    }
    for (const [name, url] of [
      ["node 3", "resource/3"],
      ["node 1499\nnode 35", "x"],
      ["99", "1\nhttps"],
    ] as const) {
      const [later, plainLater] = ask(name, url);
      expect(later).toEqual(plainLater);
    }
  });

  it("are not kept when the budget could not hold them, and answer the same", () => {
    for (const maxBytes of [0, 10_000, 100_000]) {
      const cache = createViewCache({ maxBytes });
      const store = columnStoreOf(viewSlotOf(cache, list, "view"));
      expect(scanWith(list, question("node 7", "resource/1"), store)).toEqual(
        plain(question("node 7", "resource/1")),
      );
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
      // 100 kB holds the url column (about 60 kB), not the names (about 180 kB).
      expect(cache.size).toBe(maxBytes === 100_000 ? 1 : 0);
    }
  });

  it("serve only the items array they were laid out over", () => {
    const other = list.map((item) => ({ ...item, name: "node 1 again" }));
    const cache = createViewCache();
    const document = { list, other };
    const store = columnStoreOf(viewSlotOf(cache, document, "view"));
    scanWith(list, question("node 1", "x"), store);
    expect(scanWith(other, question("node 1", "x"), store).indices).toHaveLength(5_000);
  });

  it("are not used without a store, under minItems, or for other filters", () => {
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, list, "view"));
    scanWith(list, [{ path: "/name", op: "icontains", value: "node" }], store);
    scanWith(list, [...question("a", "b"), { path: "/name", op: "exists" }], store);
    scanWith(list, question("é", "b"), store);
    const few = list.slice(0, 100);
    scanWith(few, question("a", "b"), store);
    const name = compileFilterPath("/name");
    expect([
      keptTextColumn(store as ColumnStore, list, name),
      keptTextColumn(store as ColumnStore, few, name),
    ]).toEqual([undefined, undefined]);
    scanWith(list, question("a", "b"), null);
    expect(keptTextColumn(store as ColumnStore, list, name)).toBeUndefined();
    scanWith(list, question("a", "b"), store);
    expect(keptTextColumn(store as ColumnStore, list, name)?.text.slice(0, 19)).toBe(
      "Tag 0\nNode 1\nNode 2",
    );
  });
});
