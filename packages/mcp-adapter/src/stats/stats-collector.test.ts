import { describe, expect, it } from "vitest";
import { createStatsCollector } from "./stats-collector.js";

describe("createStatsCollector", () => {
  it("starts empty with a null hit rate rather than NaN", () => {
    expect(createStatsCollector().snapshot()).toEqual({
      totals: {
        calls: 0,
        boundedCalls: 0,
        bytesReceived: 0,
        bytesSentToModel: 0,
        queries: 0,
        parseCacheHits: 0,
        parseCacheMisses: 0,
        parseCacheHitRate: null,
      },
      tools: {},
    });
  });

  it("counts calls, bounded calls, queries and parse-cache lookups per tool and in total", () => {
    const stats = createStatsCollector();
    stats.recordCall("search", {
      bytesReceived: 5_000_000,
      bytesSentToModel: 8_000,
      bounded: true,
    });
    stats.recordCall("search", { bytesReceived: 100, bytesSentToModel: 100, bounded: false });
    stats.recordCall("get_node", { bytesReceived: 40, bytesSentToModel: 40, bounded: false });
    stats.recordQuery("search", { bytesSentToModel: 2_000, parseCacheHit: false });
    stats.recordQuery("search", { bytesSentToModel: 3_000, parseCacheHit: true });
    stats.recordQuery("search", { bytesSentToModel: 1_000, parseCacheHit: true });
    stats.recordQuery("query_response_artifact", { bytesSentToModel: 300 });
    stats.recordParseCacheLookup("search", true);

    expect(JSON.parse(JSON.stringify(stats.snapshot()))).toEqual({
      totals: {
        calls: 3,
        boundedCalls: 1,
        bytesReceived: 5_000_140,
        bytesSentToModel: 14_440,
        queries: 4,
        parseCacheHits: 3,
        parseCacheMisses: 1,
        parseCacheHitRate: 0.75,
      },
      tools: {
        get_node: {
          calls: 1,
          boundedCalls: 0,
          bytesReceived: 40,
          bytesSentToModel: 40,
          queries: 0,
          parseCacheHits: 0,
          parseCacheMisses: 0,
          parseCacheHitRate: null,
        },
        query_response_artifact: {
          calls: 0,
          boundedCalls: 0,
          bytesReceived: 0,
          bytesSentToModel: 300,
          queries: 1,
          parseCacheHits: 0,
          parseCacheMisses: 0,
          parseCacheHitRate: null,
        },
        search: {
          calls: 2,
          boundedCalls: 1,
          bytesReceived: 5_000_100,
          bytesSentToModel: 14_100,
          queries: 3,
          parseCacheHits: 3,
          parseCacheMisses: 1,
          parseCacheHitRate: 0.75,
        },
      },
    });
  });

  it("lists tools in name order and keeps a tool named __proto__ as data", () => {
    const stats = createStatsCollector();
    stats.recordCall("zeta", { bytesReceived: 1, bytesSentToModel: 1, bounded: false });
    stats.recordCall("__proto__", { bytesReceived: 1, bytesSentToModel: 1, bounded: false });
    stats.recordCall("alpha", { bytesReceived: 1, bytesSentToModel: 1, bounded: false });
    const tools = stats.snapshot().tools;
    expect(Object.keys(tools)).toEqual(["__proto__", "alpha", "zeta"]);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  });

  it("counts a negative or non-finite byte count as zero instead of throwing", () => {
    const stats = createStatsCollector();
    stats.recordCall("t", { bytesReceived: -5, bytesSentToModel: Number.NaN, bounded: false });
    stats.recordQuery("t", { bytesSentToModel: Number.POSITIVE_INFINITY });
    expect(stats.snapshot().totals).toMatchObject({ bytesReceived: 0, bytesSentToModel: 0 });
  });

  it("returns snapshots that later recording does not change, and resets to empty", () => {
    const stats = createStatsCollector();
    stats.recordCall("t", { bytesReceived: 10, bytesSentToModel: 10, bounded: false });
    const before = stats.snapshot();
    stats.recordCall("t", { bytesReceived: 10, bytesSentToModel: 10, bounded: false });
    expect(before.totals.calls).toBe(1);
    stats.reset();
    expect(stats.snapshot()).toEqual(createStatsCollector().snapshot());
  });
});
