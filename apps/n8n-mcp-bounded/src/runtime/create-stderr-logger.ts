import { createLoggerFrom, type Logger } from "@bounded-mcp/mcp-adapter";
import { pino } from "pino";

/** The log levels of `N8N_MCP_BOUNDED_LOG_LEVEL`. */
export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/** One of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The app's logger: the adapter's Logger plus a flush for exit paths. */
export interface StderrLogger extends Logger {
  flush(): void;
}

/**
 * pino writing JSON lines to file descriptor 2 (stdout is the MCP protocol channel), synchronously
 * so a line logged just before exit is kept. `destination` is a file descriptor, for tests.
 */
export function createStderrLogger(level: LogLevel, destination = 2): StderrLogger {
  const base = pino(
    { level, base: { name: "n8n-mcp-bounded" } },
    pino.destination({ fd: destination, sync: true }),
  );
  return { ...createLoggerFrom(base), flush: () => base.flush() };
}
