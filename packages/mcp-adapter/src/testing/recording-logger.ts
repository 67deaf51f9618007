import type { LogFields, Logger } from "../logging/logger.js";

/** One line a recording logger kept. */
export interface LogRecord {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: LogFields;
}

/** A logger that keeps its lines in memory, with the lines it kept. */
export interface RecordingLogger extends Logger {
  readonly records: readonly LogRecord[];
}

/**
 * A logger that remembers every line instead of printing it. Tests assert on exactly what the
 * adapter logged (the "exactly one warning" promises), and embedders can use it to surface
 * warnings in their own UI. Unbounded: meant for tests and short-lived diagnostics.
 */
export function createRecordingLogger(): RecordingLogger {
  const records: LogRecord[] = [];
  const record =
    (level: LogRecord["level"]) =>
    (message: string, fields?: LogFields): void => {
      records.push(fields === undefined ? { level, message } : { level, message, fields });
    };
  return {
    records,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
  };
}
