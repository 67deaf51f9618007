import type { LogFields, Logger } from "./logger.js";

/** Emits one warning per key; later calls with the same key are dropped. */
export type WarnOnce = (key: string, message: string, fields?: LogFields) => void;

/**
 * Warnings about configuration (a missing key ring, an outputSchema that forces
 * structuredContent) must appear exactly once per process or per server, not once per call.
 * The returned function remembers the keys it has already warned about; its memory lives as long
 * as the function, so create one per server.
 */
export function createWarnOnce(logger: Logger): WarnOnce {
  const warned = new Set<string>();
  return (key, message, fields) => {
    if (warned.has(key)) return;
    warned.add(key);
    logger.warn(message, fields);
  };
}
