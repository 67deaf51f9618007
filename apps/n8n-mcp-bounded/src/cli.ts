#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { trackInFlight } from "@bounded-mcp/mcp-adapter";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { formatN8nHelp } from "./options/help.js";
import { loadN8nOptions, type N8nCommand, N8nUsageError } from "./options/load-n8n-options.js";
import { createChildEnvironment } from "./runtime/child-environment.js";
import { createN8nMcpBounded } from "./runtime/create-n8n-mcp-bounded.js";
import { createStderrLogger } from "./runtime/create-stderr-logger.js";
import { readN8nMcpVersion, resolveN8nMcpEntry } from "./runtime/n8n-mcp-entry.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

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
  let command: N8nCommand;
  try {
    command = loadN8nOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof N8nUsageError)) throw error;
    process.stderr.write(`n8n-mcp-bounded: ${error.message}\n`);
    process.exit(2);
  }
  if (command.action === "telemetry") runTelemetryCommand(command.args);
  if (command.action === "help") {
    process.stdout.write(formatN8nHelp(version, readN8nMcpVersion()));
    return;
  }
  if (command.action === "version") {
    process.stdout.write(`${version}\n`);
    return;
  }
  const logger = createStderrLogger(command.logLevel);
  for (const warning of command.warnings)
    logger.warn(warning.message, { setting: warning.setting });
  const app = createN8nMcpBounded({
    environment: process.env,
    resolvedSettings: command.settings,
    logger,
  });
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
