#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { SettingsError, trackInFlight } from "@bounded-mcp/mcp-adapter";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createChildEnvironment } from "./runtime/child-environment.js";
import { createN8nMcpBounded } from "./runtime/create-n8n-mcp-bounded.js";
import { createStderrLogger, parseLogLevel } from "./runtime/create-stderr-logger.js";
import { resolveN8nMcpEntry } from "./runtime/n8n-mcp-entry.js";

/**
 * `n8n-mcp-bounded telemetry <enable|disable|status>` is n8n-mcp's own command, run with the
 * environment the child gets, so `status` reports what the child will do.
 */
function runTelemetryCommand(args: string[]): never {
  const outcome = spawnSync(process.execPath, [resolveN8nMcpEntry(), ...args], {
    stdio: "inherit",
    env: createChildEnvironment(process.env),
  });
  process.exit(outcome.status ?? 1);
}

/** How long a stop waits for the answers in flight before closing n8n-mcp anyway. */
const SHUTDOWN_GRACE_MS = 30_000;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "telemetry") runTelemetryCommand(args);
  const logger = createStderrLogger(parseLogLevel(process.env.N8N_MCP_BOUNDED_LOG_LEVEL));
  let app: ReturnType<typeof createN8nMcpBounded>;
  try {
    app = createN8nMcpBounded({ environment: process.env, logger });
  } catch (error) {
    if (!SettingsError.isInstance(error)) throw error;
    process.stderr.write(`n8n-mcp-bounded: ${error.message}\n`);
    process.exit(2);
  }
  const tracked = trackInFlight(new StdioServerTransport());
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Answers still in flight (the client may close stdin right after its last request) are
    // sent before n8n-mcp is closed.
    await tracked.whenIdle(SHUTDOWN_GRACE_MS);
    await app.close().catch((error: unknown) => {
      logger.error("closing failed", { error: String(error) });
    });
    logger.flush();
    process.exit(code);
  };
  const session = await app.relay.connect(tracked.transport);
  // One client, one child: a child that cannot be started ends the program with code 1 (as
  // bounded-mcp-proxy does), unless a stop was asked for first.
  let exitCode = 0;
  session.ready.catch((error: unknown) => {
    if (stopping) return;
    exitCode = 1;
    logger.error("n8n-mcp could not be started: exiting", {
      error: error instanceof Error ? error.message : String(error),
    });
  });
  process.stdin.once("end", () => void stop(0));
  process.once("SIGINT", () => void stop(0));
  process.once("SIGTERM", () => void stop(0));
  await session.closed;
  await stop(exitCode);
}

await main();
