/** Counters of one tool (or of all tools, in `totals`), as plain JSON. */
export interface ToolStats {
  /** tools/call requests answered for this tool, bounded or not. */
  calls: number;
  /** Calls whose result was over inlineBytes and became an envelope or a bounded error. */
  boundedCalls: number;
  /** Bytes of results as the tool produced them (the size that decides bounding). */
  bytesReceived: number;
  /** Bytes of results as sent to the model (inline results, envelopes, query pages). */
  bytesSentToModel: number;
  /** query_response_artifact calls made against this tool's artifacts. */
  queries: number;
  parseCacheHits: number;
  parseCacheMisses: number;
  /** hits / (hits + misses), or null before the first lookup (never NaN, so it stays JSON). */
  parseCacheHitRate: number | null;
}

/** What `snapshot()` returns: per-tool counters in name order and their sums. */
export interface StatsSnapshot {
  totals: ToolStats;
  tools: Record<string, ToolStats>;
}

/** One answered tools/call of an ordinary tool. */
export interface CallSample {
  bytesReceived: number;
  bytesSentToModel: number;
  bounded: boolean;
}

/** One answered query_response_artifact call. */
export interface QuerySample {
  bytesSentToModel: number;
  /** Whether the parsed artifact came from the parse cache; omit when no artifact was loaded. */
  parseCacheHit?: boolean;
}

/**
 * Counts what the adapter did, per tool, so an operator can see how much bounding saves and
 * whether the parse cache works. Recording never throws: a negative or non-finite byte count is
 * counted as 0. Counters are process-local (replicas each keep their own) and grow without
 * limit in number of tools only as far as the server's own tool list.
 */
export interface StatsCollector {
  /** Records one answered call of `tool`. */
  recordCall(tool: string, sample: CallSample): void;
  /** Records one query against an artifact produced by `tool` (or the query tool's name when unknown). */
  recordQuery(tool: string, sample: QuerySample): void;
  /** Records one parse-cache lookup outside a query (a descriptor read, a prefetch). */
  recordParseCacheLookup(tool: string, hit: boolean): void;
  /** A copy of every counter, safe to JSON.stringify and to keep. */
  snapshot(): StatsSnapshot;
  /** Sets every counter back to zero. */
  reset(): void;
}

type Counters = Omit<ToolStats, "parseCacheHitRate">;

function emptyCounters(): Counters {
  return {
    calls: 0,
    boundedCalls: 0,
    bytesReceived: 0,
    bytesSentToModel: 0,
    queries: 0,
    parseCacheHits: 0,
    parseCacheMisses: 0,
  };
}

function byteCount(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function withHitRate(counters: Counters): ToolStats {
  const lookups = counters.parseCacheHits + counters.parseCacheMisses;
  return {
    ...counters,
    parseCacheHitRate: lookups === 0 ? null : counters.parseCacheHits / lookups,
  };
}

function sum(all: Iterable<Counters>): Counters {
  const total = emptyCounters();
  for (const counters of all) {
    for (const key of Object.keys(total) as (keyof Counters)[]) total[key] += counters[key];
  }
  return total;
}

/** Creates an empty stats collector; one per server (or per relay). */
export function createStatsCollector(): StatsCollector {
  const byTool = new Map<string, Counters>();
  const countersOf = (tool: string): Counters => {
    let counters = byTool.get(tool);
    if (counters === undefined) {
      counters = emptyCounters();
      byTool.set(tool, counters);
    }
    return counters;
  };
  const recordLookup = (counters: Counters, hit: boolean): void => {
    if (hit) counters.parseCacheHits += 1;
    else counters.parseCacheMisses += 1;
  };
  return {
    recordCall(tool, sample) {
      const counters = countersOf(tool);
      counters.calls += 1;
      if (sample.bounded) counters.boundedCalls += 1;
      counters.bytesReceived += byteCount(sample.bytesReceived);
      counters.bytesSentToModel += byteCount(sample.bytesSentToModel);
    },
    recordQuery(tool, sample) {
      const counters = countersOf(tool);
      counters.queries += 1;
      counters.bytesSentToModel += byteCount(sample.bytesSentToModel);
      if (sample.parseCacheHit !== undefined) recordLookup(counters, sample.parseCacheHit);
    },
    recordParseCacheLookup(tool, hit) {
      recordLookup(countersOf(tool), hit);
    },
    snapshot() {
      const names = [...byTool.keys()].sort();
      return {
        totals: withHitRate(sum(byTool.values())),
        tools: Object.fromEntries(
          names.map((name) => [name, withHitRate(byTool.get(name) ?? emptyCounters())]),
        ),
      };
    },
    reset() {
      byTool.clear();
    },
  };
}
