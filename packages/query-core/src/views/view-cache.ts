/**
 * The view cache's byte budget when none is given: 64 MiB of positions, path and text columns,
 * and rows.
 */
export const DEFAULT_VIEW_CACHE_BYTES = 64 * 1024 * 1024;

/** How big a view cache may grow. */
export interface ViewCacheOptions {
  /** Bytes the cached views may hold in all (their estimate, see README "View cache"); 0 keeps none. */
  maxBytes?: number;
}

/**
 * Remembers the expensive part of a view (matching positions, sorted order, aggregate rows, the
 * entry list of a keyed object) per parsed document and key, so that later pages of the same
 * view cost only the page. Bounded by bytes (each entry's honest estimate), least recently used
 * first out; an entry larger than the whole budget is not kept. A document's entries go with it:
 * `forget(document)`, or on their own once the document is garbage (a FinalizationRegistry).
 * Documents are treated as immutable: a document changed after a query may be answered from a
 * stale view. Not safe across worker threads (one cache per thread).
 */
export interface ViewCache {
  /** The value kept for (document, key), marked as just used; undefined when none is kept. */
  get(document: object, key: string): unknown;
  /** Keeps (or replaces) the value for (document, key), `bytes` its estimated size. */
  set(document: object, key: string, value: unknown, bytes: number): void;
  /** Drops every entry of the document (the parse cache evicted it, the artifact expired). */
  forget(document: object): void;
  /** Bytes held now (the sum of the entries' estimates). */
  readonly bytes: number;
  /** Entries held now. */
  readonly size: number;
  /** The budget. */
  readonly maxBytes: number;
}

interface Entry {
  readonly views: Map<string, Entry>;
  readonly key: string;
  value: unknown;
  bytes: number;
}

/** Creates an empty view cache (DEFAULT_VIEW_CACHE_BYTES unless `maxBytes` says otherwise). */
export function createViewCache(options: ViewCacheOptions = {}): ViewCache {
  const maxBytes = Math.max(0, options.maxBytes ?? DEFAULT_VIEW_CACHE_BYTES);
  const byDocument = new WeakMap<object, Map<string, Entry>>();
  // Insertion order is recency order: a used entry is deleted and inserted again.
  const recency = new Set<Entry>();
  let held = 0;

  const drop = (entry: Entry): void => {
    if (!recency.delete(entry)) return;
    held -= entry.bytes;
    if (entry.views.get(entry.key) === entry) entry.views.delete(entry.key);
  };
  const dropAll = (views: Map<string, Entry>): void => {
    for (const entry of [...views.values()]) drop(entry);
  };
  // The per-document map does not refer to its document, so it may be the held value.
  const collected = new FinalizationRegistry<Map<string, Entry>>(dropAll);

  const evictTo = (budget: number): void => {
    for (const entry of recency) {
      if (held <= budget) return;
      drop(entry);
    }
  };

  return {
    get(document, key) {
      const entry = byDocument.get(document)?.get(key);
      if (entry === undefined) return undefined;
      recency.delete(entry);
      recency.add(entry);
      return entry.value;
    },
    set(document, key, value, bytes) {
      let views = byDocument.get(document);
      const old = views?.get(key);
      if (old !== undefined) drop(old);
      if (bytes > maxBytes) return;
      if (views === undefined) {
        views = new Map();
        byDocument.set(document, views);
        collected.register(document, views, views);
      }
      const entry: Entry = { views, key, value, bytes };
      views.set(key, entry);
      recency.add(entry);
      held += bytes;
      evictTo(maxBytes);
    },
    forget(document) {
      const views = byDocument.get(document);
      if (views === undefined) return;
      dropAll(views);
      byDocument.delete(document);
      collected.unregister(views);
    },
    get bytes() {
      return held;
    },
    get size() {
      return recency.size;
    },
    maxBytes,
  };
}
