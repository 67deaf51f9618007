import { StoreError } from "../store-error.js";

/** Tracks whether a store was disposed; every call checks it first. */
export interface Lifecycle {
  readonly disposed: boolean;
  /** Throws StoreError STORE_UNAVAILABLE once the store was disposed. */
  assertOpen(operation: string): void;
  /** Marks the store disposed; true the first time only. */
  markDisposed(): boolean;
}

/** A Lifecycle for the store named `store`. */
export function createLifecycle(store: string): Lifecycle {
  let disposed = false;
  return {
    get disposed() {
      return disposed;
    },
    assertOpen(operation) {
      if (disposed) {
        throw new StoreError({
          code: "STORE_UNAVAILABLE",
          store,
          operation,
          message: `[stores:${store}] ${operation} failed: the store was disposed`,
        });
      }
    },
    markDisposed() {
      if (disposed) return false;
      disposed = true;
      return true;
    },
  };
}
