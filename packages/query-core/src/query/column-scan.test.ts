import type { Filter } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { OBJECT_BYTES } from "../views/view-bytes.js";
import { createViewCache } from "../views/view-cache.js";
import { viewSlotOf } from "../views/view-slot.js";
import { compileFilterPath } from "./compiled-path.js";
import { applyFilters, compileFilters, createFilterScan } from "./filters.js";
import {
  columnBytes,
  columnBytesAtMost,
  columnStoreOf,
  FIRST_STRING_SLOT,
  MIN_COLUMN_ITEMS,
  OTHER_SLOT,
} from "./path-columns.js";
import { runQuery, runQueryAsync } from "./run-query.js";
import { createRequest, createTestContext, query } from "./test-support/query-harness.js";

function scanWith(
  list: readonly unknown[],
  filters: Filter[],
  store: ReturnType<typeof columnStoreOf>,
) {
  const scan = createFilterScan(list, compileFilters(filters), store);
  for (let start = 0; start < list.length; start += 1_000) {
    scan.scan(start, Math.min(list.length, start + 1_000));
  }
  return scan.finish();
}

describe("path columns in the view cache", () => {
  it("lay out an own key and a nested path together, then decide other filters from them", () => {
    const count = 5_000;
    let reads = 0;
    const order: string[] = [];
    const list = Array.from({ length: count }, (_, index) => {
      if (index % 11 === 0) return [index];
      const parameters = index % 5 === 0 ? { options: [] } : { options: { timeout: index % 97 } };
      return {
        get type() {
          reads += 1;
          if (order.length < 6) order.push("type");
          return `t${index % 4}`;
        },
        get parameters() {
          reads += 1;
          if (order.length < 6) order.push("parameters");
          return parameters;
        },
      };
    });
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, list, "view"));
    const first: Filter[] = [
      { path: "/type", value: "t1" },
      { path: "/parameters/options/timeout", op: "lt", value: 40 },
    ];
    const objects = list.filter((item) => !Array.isArray(item)).length;
    reads = 0;
    const laidOut = scanWith(list, first, store);
    // One read of each path on each object item, both paths of an item together (one pass).
    expect(reads).toBe(2 * objects);
    expect(order).toEqual(["type", "parameters", "type", "parameters", "type", "parameters"]);
    expect(laidOut).toEqual(applyFilters(list, compileFilters(first)));
    const type = store?.get(list, compileFilterPath("/type"));
    const timeout = store?.get(list, compileFilterPath("/parameters/options/timeout"));
    expect(type?.built).toBe(count);
    expect(type?.resolved).toBe(objects);
    // {options: []} (every 5th item) resolves no timeout.
    const withTimeout = list.filter((_, index) => index % 11 !== 0 && index % 5 !== 0).length;
    expect(timeout?.built).toBe(count);
    expect(timeout?.resolved).toBe(withTimeout);
    // Another question over the same paths reads no item: it decides from the kept columns.
    const second: Filter[] = [
      { path: "/type", op: "ne", value: "t1" },
      { path: "/parameters/options/timeout", op: "gte", value: 50 },
    ];
    const expected = applyFilters(list, compileFilters(second));
    reads = 0;
    expect(scanWith(list, second, columnStoreOf(viewSlotOf(cache, list, "view")))).toEqual(
      expected,
    );
    expect(reads).toBe(0);
  });

  it("count their slots, numbers and string list in the cache's bytes", () => {
    const count = 5_000;
    const list = Array.from({ length: count }, (_, index) => ({
      n: index % 7,
      s: `s${index % 3}`,
    }));
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, list, "view"));
    scanWith(
      list,
      [
        { path: "/n", op: "gt", value: 2 },
        { path: "/s", value: "s1" },
      ],
      store,
    );
    const numbers = store?.get(list, compileFilterPath("/n"));
    const strings = store?.get(list, compileFilterPath("/s"));
    // An object header, the slots (4 bytes an item), the numbers (8 bytes an item, only where the
    // column holds numbers) and 8 bytes a coded string (the strings are the document's).
    const slots = OBJECT_BYTES + 4 * count;
    expect(columnBytes(numbers as never)).toBe(
      OBJECT_BYTES + slots + OBJECT_BYTES + 8 * count + OBJECT_BYTES,
    );
    expect(columnBytes(strings as never)).toBe(OBJECT_BYTES + slots + OBJECT_BYTES + 8 * 3);
    expect(cache.bytes).toBe(columnBytes(numbers as never) + columnBytes(strings as never));
    expect(cache.size).toBe(2);
  });

  it("are not laid out when the budget could not keep them, and answer the same", () => {
    const list = Array.from({ length: 5_000 }, (_, index) => ({ n: index % 7 }));
    const filters: Filter[] = [{ path: "/n", value: 3 }];
    for (const maxBytes of [0, 10_000, columnBytesAtMost(5_000) - 1]) {
      const cache = createViewCache({ maxBytes });
      const outcome = scanWith(list, filters, columnStoreOf(viewSlotOf(cache, list, "view")));
      expect(outcome).toEqual(applyFilters(list, compileFilters(filters)));
      expect([cache.size, cache.bytes]).toEqual([0, 0]);
    }
    const roomy = createViewCache({ maxBytes: columnBytesAtMost(5_000) });
    scanWith(list, filters, columnStoreOf(viewSlotOf(roomy, list, "view")));
    expect(roomy.size).toBe(1);
    expect(roomy.bytes).toBeLessThanOrEqual(columnBytesAtMost(5_000));
  });

  it("serve only the items array they were laid out over", () => {
    const list = Array.from({ length: 5_000 }, (_, index) => ({ n: index }));
    const other = list.map((item) => ({ n: -item.n }));
    const cache = createViewCache();
    const document = { list, other };
    const store = columnStoreOf(viewSlotOf(cache, document, "view"));
    scanWith(list, [{ path: "/n", op: "lt", value: 10 }], store);
    expect(store?.get(list, compileFilterPath("/n"))).toBeDefined();
    expect(store?.get(other, compileFilterPath("/n"))).toBeUndefined();
    expect(scanWith(other, [{ path: "/n", op: "lt", value: 10 }], store).indices).toHaveLength(
      5_000,
    );
  });

  it("stop coding strings past the dictionary and read those items again, exactly", () => {
    // 300 distinct strings of one length: the dictionary codes the first ones of that length,
    // the rest of the strings stay OTHER_SLOT and are decided on the item's value.
    const list = Array.from({ length: 6_000 }, (_, index) => ({
      s: index % 11 === 0 ? ["k007", index] : `k${String(index % 300).padStart(3, "0")}`,
    }));
    const cache = createViewCache();
    const store = columnStoreOf(viewSlotOf(cache, list, "view"));
    const cases: Filter[][] = [
      [{ path: "/s", value: "k007" }],
      [{ path: "/s", value: "k299" }],
      [{ path: "/s", op: "in", value: ["k001", "k250", 3] }],
      [{ path: "/s", op: "icontains", value: "K00" }],
      [{ path: "/s", op: "gte", value: "k200" }],
      [{ path: "/s", op: "contains", value: "k007" }],
    ];
    for (const filters of cases) {
      expect(scanWith(list, filters, store)).toEqual(applyFilters(list, compileFilters(filters)));
    }
    const column = store?.get(list, compileFilterPath("/s"));
    expect(column?.strings.length).toBe(16);
    expect(column?.slots[0]).toBe(OTHER_SLOT);
    expect(column?.slots[1]).toBe(FIRST_STRING_SLOT);
    expect(column?.slots[5_999]).toBe(OTHER_SLOT);
  });

  it("are laid out only for collections of at least MIN_COLUMN_ITEMS items", () => {
    const cache = createViewCache();
    const small = Array.from({ length: MIN_COLUMN_ITEMS - 1 }, (_, index) => ({ n: index }));
    scanWith(small, [{ path: "/n", value: 1 }], columnStoreOf(viewSlotOf(cache, small, "view")));
    expect(cache.size).toBe(0);
  });
});

/** Nodes whose `type` and `disabled` count their reads, so a test sees what a query read. */
function countingNodes(count: number): { nodes: Record<string, unknown>[]; reads: () => number } {
  let reads = 0;
  const types = ["http", "code", "set", "if", "slack"];
  const nodes = Array.from({ length: count }, (_, index) => {
    const node: Record<string, unknown> = { id: `n${index}`, name: `Node ${index}` };
    for (const [key, value] of Object.entries({
      type: types[index % 5],
      disabled: index % 10 === 0,
    })) {
      Object.defineProperty(node, key, {
        enumerable: true,
        get: () => {
          reads += 1;
          return value;
        },
      });
    }
    return node;
  });
  return { nodes, reads: () => reads };
}

describe("runQuery with a view cache: path columns", () => {
  it("answers a second question over the same paths from the columns, as without a cache", () => {
    const { nodes, reads } = countingNodes(6_000);
    const viewCache = createViewCache();
    const input = (type: string, disabled: boolean) => ({
      filters: [
        { path: "/type", value: type },
        { path: "/disabled", value: disabled },
      ],
      fields: ["id", "name"],
      pageSize: 5,
    });
    const first = query(nodes, input("code", true), { viewCache });
    expect(first.result).toEqual(query(nodes, input("code", true)).result);
    const before = reads();
    const second = query(nodes, input("http", false), { viewCache });
    // The filters read no item: both paths are decided from the kept columns.
    expect(reads() - before).toBe(0);
    expect(second.result).toEqual(query(nodes, input("http", false)).result);
    expect(second.result.responseMeta.totalCount).toBe(600);
    expect(second.result.responseMeta.filtersApplied).toEqual([
      { path: "/type", op: "eq", resolvedOn: 6_000, matched: 1_200 },
      { path: "/disabled", op: "eq", resolvedOn: 6_000, matched: 5_400 },
    ]);
  });

  it("lays the columns out in slices under runQueryAsync and answers as runQuery", async () => {
    const { nodes, reads } = countingNodes(9_000);
    const viewCache = createViewCache();
    let clock = 0;
    // Every reading of the clock is 1 ms later: the query pauses after every chunk.
    const context = createTestContext({ viewCache, now: () => (clock += 1) });
    const request = (type: string) =>
      createRequest({ filters: [{ path: "/type", value: type }], fields: ["id"], pageSize: 3 });
    let pauses = 0;
    const options = {
      sliceMs: 1,
      pause: async () => {
        pauses += 1;
      },
    };
    const first = await runQueryAsync(nodes, request("set"), context, options);
    expect(pauses).toBeGreaterThan(2);
    expect(first.result).toEqual(runQuery(nodes, request("set"), createTestContext()).result);
    const before = reads();
    const second = await runQueryAsync(nodes, request("if"), context, options);
    expect(reads() - before).toBe(0);
    expect(second.result).toEqual(runQuery(nodes, request("if"), createTestContext()).result);
  });
});
