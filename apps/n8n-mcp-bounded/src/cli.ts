#!/usr/bin/env node
import { spawnSync } from "node:child_process";
import { SettingsError } from "@bounded-mcp/mcp-adapter";
import { serveStdio } from "@bounded-mcp/relay";
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
  // The stdio lifecycle both apps share (answers in flight sent first, exit 1 when n8n-mcp
  // cannot be started).
  const serving = await serveStdio(app.relay, {
    logger,
    upstreamLabel: "n8n-mcp",
    signals: ["SIGINT", "SIGTERM"],
  });
  const code = await serving.ended;
  await app.close().catch((error: unknown) => {
    logger.error("closing failed", { error: String(error) });
  });
  logger.flush();
  process.exit(code);
}

await main();
