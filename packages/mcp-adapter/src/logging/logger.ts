/** Structured context attached to one log line (tool name, byte counts, codes). */
export type LogFields = Record<string, unknown>;

/**
 * The tiny logger the adapter writes through. Library code never prints: the embedding program
 * injects an implementation (the apps pass pino writing to stderr, because stdout is the stdio
 * protocol channel). Methods must not throw; the adapter does not guard its calls.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function ignore(): void {}

/**
 * The default logger: drops everything. A library that embeds the adapter must stay silent unless
 * its author opts in, so nothing ever reaches stdout by accident.
 */
export const SILENT_LOGGER: Logger = Object.freeze({
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
});
