import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { PROXY_CLI } from "./paths.js";
import { proxyEnvironment } from "./proxy-process.js";

/** An initialize request as a raw client sends it (stdio line or HTTP body). */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

/** A proxy spawned over stdio without an SDK client, so its stdout is seen byte for byte. */
export interface RawStdioProxy {
  readonly child: ChildProcessWithoutNullStreams;
  /** Writes one JSON-RPC message as a line on the proxy's stdin. */
  send(message: object): void;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
}

/** Spawns `node dist/cli.js <args>` with piped stdio and records both output streams. */
export function spawnRawStdioProxy(
  args: readonly string[],
  environment: Record<string, string> = {},
): RawStdioProxy {
  const child = spawn(process.execPath, [PROXY_CLI, ...args], {
    env: proxyEnvironment(environment),
  });
  let stdout = "";
  let stderr = "";
  // A proxy that exits at start (a missing upstream command) closes its stdin under a write.
  child.stdin.on("error", () => undefined);
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return {
    child,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    stdout: () => stdout,
    stderr: () => stderr,
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
}
