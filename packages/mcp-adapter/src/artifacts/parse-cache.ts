/** One parsed artifact held by the parse cache. */
export interface ParseCacheEntry<Value> {
  value: Value;
  /** What the entry counts against the budget (the stored payload's byteLength). */
  bytes: number;
}

/** Hits and misses since the cache was made. */
export interface ParseCacheCounters {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/**
 * Parsed artifacts kept in memory so repeated queries neither re-read nor re-parse (a page of a
 * warm artifact must cost a fraction of one parse). Least recently used entries are evicted once the sum of their payload bytes passes
 * `maxBytes`; an entry larger than the whole budget is not kept. The budget counts payload bytes,
 * not heap: a parsed JSON document takes several times its text in memory.
 */
export interface ParseCache<Value> {
  /** The entry, refreshed as most recently used, or undefined; counts a hit or a miss. */
  get(key: string): Value | undefined;
  /** The entry without counting or refreshing it. */
  peek(key: string): Value | undefined;
  /** Adds or replaces an entry, then evicts the least recently used ones over budget. */
  set(key: string, value: Value, bytes: number): void;
  delete(key: string): void;
  clear(): void;
  counters(): ParseCacheCounters;
  /** Whether an entry of `bytes` would be kept (caching is on and it fits the whole budget). */
  accepts(bytes: number): boolean;
}

/** Creates an empty LRU parse cache bounded by `maxBytes` (0 disables caching). */
export function createParseCache<Value>(options: { maxBytes: number }): ParseCache<Value> {
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
      const weight = Math.max(0, Math.floor(size));
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
