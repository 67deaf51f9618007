import type { LogFields, Logger } from "./logger.js";

type Level = "debug" | "info" | "warn" | "error";

/**
 * A structured logger in the pino style: each level takes `(fields, message)` or `(message)`.
 * Declared here so the adapter needs no logging dependency; pino's logger fits it as it is.
 */
export type StructuredLogTarget = {
  [level in Level]: { (fields: object, message: string): void; (message: string): void };
};

/**
 * The adapter's `Logger` over a pino-style logger: `logger.warn(message, fields)` becomes
 * `target.warn(fields, message)`, and a line without fields is passed as the message alone.
 * Both apps build theirs with it (pino writing to stderr); embedders can do the same.
 */
export function createLoggerFrom(target: StructuredLogTarget): Logger {
  const write = (level: Level) => (message: string, fields?: LogFields) => {
    if (fields === undefined) target[level](message);
    else target[level](fields, message);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
