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

/** The slot of one request, or null without a cache or when the document cannot key a WeakMap. */
export function viewSlotOf(
  cache: ViewCache | undefined,
  document: unknown,
  viewHash: string,
): ViewSlot | null {
  if (cache === undefined || typeof document !== "object" || document === null) return null;
  return {
    viewHash,
    get: (key) => cache.get(document, key),
    set: (key, value, bytes) => cache.set(document, key, value, bytes),
    maxBytes: cache.maxBytes,
  };
}

/** The cache key of the view's own stages (filters, sort order, aggregate rows). */
export function viewKey(slot: ViewSlot): string {
  return `view\u0000${slot.viewHash}`;
}

/** The cache key of the view's plan (compiled paths, the collection it pages, planning notes). */
export function planKey(slot: ViewSlot): string {
  return `plan\u0000${slot.viewHash}`;
}

/** The cache key of the entry list (values in key order) of the object at `pointer`. */
export function entriesKey(pointer: string): string {
  return `entries\u0000${pointer}`;
}

/** The cache key of the rows a JSONPath expression selects from the document. */
export function jsonPathKey(jsonPath: string): string {
  return `jsonPath\u0000${jsonPath}`;
}
