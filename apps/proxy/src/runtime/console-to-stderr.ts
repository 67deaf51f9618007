import { Console } from "node:console";

const STDOUT_METHODS = ["log", "info", "debug", "dir", "dirxml", "table", "group"] as const;

/**
 * In stdio mode stdout is the protocol channel, and one stray line breaks the client. The proxy
 * itself writes logs to stderr, but a `--hooks` module or a dependency may call console.log:
 * this points every console method that writes to stdout at stderr instead, for the whole
 * process. It cannot catch direct `process.stdout.write` calls.
 */
export function routeConsoleToStderr(target: Console = console): void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const method of STDOUT_METHODS) {
    (target as unknown as Record<string, unknown>)[method] = toStderr[method].bind(toStderr);
  }
}
