import type { ViewCache } from "./view-cache.js";

/**
 * One request's window on the view cache: the parsed document it reads and its view hash, with
 * the keys the engine uses (`view` for the view's own stages, `entries` for an object's entry
 * list, `jsonPath` for selected rows). Null when there is no cache or the document is a scalar.
 */
export interface ViewSlot {
  /** The view hash (SPEC.md §7) the cursor carries: the view's own entries are kept under it. */
  readonly viewHash: string;
  get(key: string): unknown;
  set(key: string, value: unknown, bytes: number): void;
  /** The cache's byte budget (what a value may cost at most and still be kept). */
  readonly maxBytes: number;
}

/** A slot's own members beside the ViewSlot methods (slotGet and slotSet read them). */
interface DocumentSlot extends ViewSlot {
  readonly cache: ViewCache;
  readonly document: object;
}

// The slot's methods are functions made once for the process, put in each slot's literal: not
// closures made per request (the optimized code of a closure is held only through the closures,
// so a full collection between two requests threw it away and the next paging optimized it
// again), and not a class whose constructor adds the members (the hidden class an object reaches
// by members added after it is made is dropped by a full collection once no such object is
// alive, and the optimized code that checks for it with it; a literal's is kept by the literal).
function slotGet(this: DocumentSlot, key: string): unknown {
  return this.cache.get(this.document, key);
}

function slotSet(this: DocumentSlot, key: string, value: unknown, bytes: number): void {
  this.cache.set(this.document, key, value, bytes);
}

/** The slot of one request, or null without a cache or when the document cannot key a WeakMap. */
export function viewSlotOf(
  cache: ViewCache | undefined,
  document: unknown,
  viewHash: string,
): ViewSlot | null {
  if (cache === undefined || typeof document !== "object" || document === null) return null;
  const slot: DocumentSlot = {
    viewHash,
    get: slotGet,
    set: slotSet,
    maxBytes: cache.maxBytes,
    cache,
    document,
  };
  return slot;
}

/**
 * The view and plan keys of the views used lately, by view hash: every page of a view asks with
 * the same keys, so they are made once (one string each, whose hash the cache's maps then keep)
 * instead of being concatenated, flattened and hashed again on every lookup. Bounded.
 */
const keysByHash = new Map<string, { readonly view: string; readonly plan: string }>();
const KEYS_LIMIT = 256;

function keysOf(viewHash: string): { readonly view: string; readonly plan: string } {
  let keys = keysByHash.get(viewHash);
  if (keys === undefined) {
    keys = { view: `view\u0000${viewHash}`, plan: `plan\u0000${viewHash}` };
    keysByHash.set(viewHash, keys);
    if (keysByHash.size > KEYS_LIMIT) {
      keysByHash.delete(keysByHash.keys().next().value as string);
    }
  }
  return keys;
}

/** The cache key of the view's own stages (filters, sort order, aggregate rows). */
export function viewKey(slot: ViewSlot): string {
  return keysOf(slot.viewHash).view;
}

/** The cache key of the view's plan (compiled paths, the collection it pages, planning notes). */
export function planKey(slot: ViewSlot): string {
  return keysOf(slot.viewHash).plan;
}

/** The cache key of the entry list (values in key order) of the object at `pointer`. */
export function entriesKey(pointer: string): string {
  return `entries\u0000${pointer}`;
}

/** The cache key of the rows a JSONPath expression selects from the document. */
export function jsonPathKey(jsonPath: string): string {
  return `jsonPath\u0000${jsonPath}`;
}
