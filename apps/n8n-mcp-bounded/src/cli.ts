#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import {
  type ChosenStore,
  chooseDefaultStdioStore,
  prepareStdioProcess,
  serveStdio,
} from "@bounded-mcp/relay";
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

async function main(): Promise<void> {
  let command: N8nCommand;
  try {
    command = loadN8nOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!N8nUsageError.isInstance(error)) throw error;
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
  // The stdio start both CLIs share (README, "Startup flags"): V8's interrupt budget and a full
  // collection after each large line from n8n-mcp.
  prepareStdioProcess(process.execArgv);
  const logger = createStderrLogger(command.logLevel);
  let chosen: ChosenStore;
  try {
    chosen = chooseDefaultStdioStore(command, logger);
  } catch (error) {
    process.stderr.write(`n8n-mcp-bounded: ${(error as Error).message}\n`);
    process.exit(1);
  }
  for (const warning of chosen.warnings) {
    logger.warn(warning.message, { setting: warning.setting });
  }
  const app = createN8nMcpBounded({
    environment: process.env,
    resolvedSettings: chosen.settings,
    logger,
  });
  // The stdio lifecycle both apps share (answers in flight sent first, exit 1 when n8n-mcp
  // cannot be started).
  const serving = await serveStdio(app.relay, {
    logger,
    upstreamLabel: "n8n-mcp",
    signals: ["SIGINT", "SIGTERM"],
  });
  const code = await serving.ended;
  logger.info("stats at exit", { ...app.relay.stats().totals });
  await app.close().catch((error: unknown) => {
    logger.error("closing failed", { error: String(error) });
  });
  logger.flush();
  process.exit(code);
}

await main();
