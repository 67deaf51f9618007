import { createLoggerFrom, type Logger } from "@bounded-mcp/mcp-adapter";
import { pino } from "pino";
import type { LogLevel } from "../options/load-options.js";

/** The proxy's logger: the adapter's `Logger` interface plus a flush for exit paths. */
export interface ProxyLogger extends Logger {
  /** Writes out anything buffered; call before process.exit. */
  flush(): void;
}

/**
 * pino writing JSON lines to file descriptor 2 only: in stdio mode stdout is the protocol
 * channel, so nothing but protocol may reach it. Writes are synchronous so a line logged just
 * before exit is not lost. `destination` exists for tests; the default is stderr.
 */
export function createProxyLogger(level: LogLevel, destination: number = 2): ProxyLogger {
  const base = pino(
    { level, base: { name: "bounded-mcp-proxy" } },
    pino.destination({ fd: destination, sync: true }),
  );
  return { ...createLoggerFrom(base), flush: () => base.flush() };
}
