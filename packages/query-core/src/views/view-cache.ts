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
 * stale view. Not safe across worker threads (one cache per thread). Call `get`, `set` and
 * `forget` on the cache (`cache.get(...)`): they are shared functions that read `this`, so a
 * detached copy of one (`const { get } = cache`) throws.
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

/** What one cache holds: its entries by document, their recency order and their bytes. */
interface CacheState {
  readonly maxBytes: number;
  readonly byDocument: WeakMap<object, Map<string, Entry>>;
  /** Insertion order is recency order: a used entry is deleted and inserted again. */
  readonly recency: Set<Entry>;
  held: number;
  /** Drops a document's entries once it is garbage (the per-document map is the held value). */
  readonly collected: FinalizationRegistry<Map<string, Entry>>;
}

/** The cache object: its state beside the ViewCache members. */
interface StatefulCache extends ViewCache {
  readonly state: CacheState;
}

function drop(state: CacheState, entry: Entry): void {
  if (!state.recency.delete(entry)) return;
  state.held -= entry.bytes;
  if (entry.views.get(entry.key) === entry) entry.views.delete(entry.key);
}

function dropAll(state: CacheState, views: Map<string, Entry>): void {
  for (const entry of [...views.values()]) drop(state, entry);
}

function evictTo(state: CacheState, budget: number): void {
  for (const entry of state.recency) {
    if (state.held <= budget) return;
    drop(state, entry);
  }
}

// get, set and forget are functions made once for the process, put in each cache's literal: a
// later page calls get and set a few times, and the code V8 optimizes for them then survives a
// full collection that finds no cache of theirs alive (per-cache closures lost theirs, and so
// does a class whose constructor adds the members: the hidden class such objects reach is
// dropped with the last of them; a literal's is kept by the literal).
function cacheGet(this: StatefulCache, document: object, key: string): unknown {
  const state = this.state;
  const entry = state.byDocument.get(document)?.get(key);
  if (entry === undefined) return undefined;
  state.recency.delete(entry);
  state.recency.add(entry);
  return entry.value;
}

function cacheSet(
  this: StatefulCache,
  document: object,
  key: string,
  value: unknown,
  bytes: number,
): void {
  const state = this.state;
  let views = state.byDocument.get(document);
  const old = views?.get(key);
  if (old !== undefined) drop(state, old);
  if (bytes > state.maxBytes) return;
  if (views === undefined) {
    views = new Map();
    state.byDocument.set(document, views);
    state.collected.register(document, views, views);
  }
  const entry: Entry = { views, key, value, bytes };
  views.set(key, entry);
  state.recency.add(entry);
  state.held += bytes;
  evictTo(state, state.maxBytes);
}

function cacheForget(this: StatefulCache, document: object): void {
  const state = this.state;
  const views = state.byDocument.get(document);
  if (views === undefined) return;
  dropAll(state, views);
  state.byDocument.delete(document);
  state.collected.unregister(views);
}

/** Creates an empty view cache (DEFAULT_VIEW_CACHE_BYTES unless `maxBytes` says otherwise). */
export function createViewCache(options: ViewCacheOptions = {}): ViewCache {
  const state: CacheState = {
    maxBytes: Math.max(0, options.maxBytes ?? DEFAULT_VIEW_CACHE_BYTES),
    byDocument: new WeakMap(),
    recency: new Set(),
    held: 0,
    collected: new FinalizationRegistry((views) => dropAll(state, views)),
  };
  const cache: StatefulCache = {
    state,
    get: cacheGet,
    set: cacheSet,
    forget: cacheForget,
    get bytes() {
      return this.state.held;
    },
    get size() {
      return this.state.recency.size;
    },
    maxBytes: state.maxBytes,
  };
  return cache;
}
