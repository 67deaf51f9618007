/**
 * The logger a store reports background problems through (a failed periodic sweep, a corrupt
 * file it skipped). Structurally a subset of the adapter's Logger, so the same object fits both.
 * Methods must not throw.
 */
export interface StoreLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** The default: drops everything, so a library embedding a store never prints by accident. */
export const SILENT_STORE_LOGGER: StoreLogger = Object.freeze({ warn() {} });
