/** One parsed artifact held by the parse cache. */
export interface ParseCacheEntry<Value> {
  value: Value;
  /** What the entry counts against the budget: `weigh(value, bytes)` when set (else bytes). */
  bytes: number;
}

/** Hits and misses since the cache was made. */
export interface ParseCacheCounters {
  hits: number;
  misses: number;
  entries: number;
  /** The sum of the entries' weights (the estimated heap they hold, with a `weigh`). */
  bytes: number;
}

/** Options of {@link createParseCache}. */
export interface ParseCacheOptions<Value> {
  /** The budget: entries are evicted once their weights sum past it (0 disables caching). */
  maxBytes: number;
  /**
   * What an entry weighs, given its value and its serialized bytes: the adapter passes the
   * estimated heap of the parsed document (`estimateHeapBytes`), since a parsed document holds
   * 1.1x to 4x its text. Default: the serialized bytes, as given.
   */
  weigh?: (value: Value, bytes: number) => number;
}

/**
 * Parsed artifacts kept in memory so repeated queries neither re-read nor re-parse (a page of a
 * warm artifact must cost a fraction of one parse). Least recently used entries are evicted once
 * the sum of their weights passes `maxBytes`; an entry heavier than the whole budget is not
 * kept. With `weigh` (the adapter's: the estimated heap of the parsed document) the budget
 * bounds heap, not text; the estimate's limits are `estimateHeapBytes`'s.
 */
export interface ParseCache<Value> {
  /** The entry, refreshed as most recently used, or undefined; counts a hit or a miss. */
  get(key: string): Value | undefined;
  /** The entry without counting or refreshing it. */
  peek(key: string): Value | undefined;
  /**
   * Adds or replaces an entry of `bytes` serialized bytes (weighed by `weigh`), then evicts the
   * least recently used ones over budget.
   */
  set(key: string, value: Value, bytes: number): void;
  delete(key: string): void;
  clear(): void;
  counters(): ParseCacheCounters;
  /**
   * Whether an entry of `bytes` serialized bytes may be kept (caching is on and its text fits the
   * whole budget): asked before parsing, when only the text is known, so a document whose parsed
   * heap then passes the budget is still not kept by `set`.
   */
  accepts(bytes: number): boolean;
}

/** Creates an empty LRU parse cache bounded by `maxBytes` of weight (0 disables caching). */
export function createParseCache<Value>(options: ParseCacheOptions<Value>): ParseCache<Value> {
  const entries = new Map<string, ParseCacheEntry<Value>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const evict = (): void => {
    for (const key of entries.keys()) {
      if (bytes <= options.maxBytes) return;
      remove(key);
    }
  };
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) {
        misses += 1;
        return undefined;
      }
      hits += 1;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    peek(key) {
      return entries.get(key)?.value;
    },
    set(key, value, size) {
      remove(key);
      const weight = Math.max(0, Math.floor(options.weigh ? options.weigh(value, size) : size));
      if (weight > options.maxBytes) return;
      entries.set(key, { value, bytes: weight });
      bytes += weight;
      evict();
    },
    delete: remove,
    clear() {
      entries.clear();
      bytes = 0;
    },
    counters() {
      return { hits, misses, entries: entries.size, bytes };
    },
    accepts(size) {
      return options.maxBytes > 0 && Math.max(0, Math.floor(size)) <= options.maxBytes;
    },
  };
}
