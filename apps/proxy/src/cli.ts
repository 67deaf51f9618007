#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { prepareStdioProcess } from "@bounded-mcp/relay";
import { formatHelp } from "./options/help.js";
import { loadOptions } from "./options/load-options.js";
import { UsageError } from "./options/usage-error.js";
import { routeConsoleToStderr } from "./runtime/console-to-stderr.js";
import { createProxyLogger } from "./runtime/create-proxy-logger.js";
import { runProxy } from "./runtime/run-proxy.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
const readFile = (path: string) => readFileSync(path, "utf8");

function refuse(error: UsageError): never {
  process.stderr.write(`bounded-mcp-proxy: ${error.message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let loaded: ReturnType<typeof loadOptions>;
  try {
    loaded = loadOptions(process.argv.slice(2), process.env, readFile);
  } catch (error) {
    if (UsageError.isInstance(error)) refuse(error);
    throw error;
  }
  if (loaded.action === "help") {
    process.stdout.write(formatHelp(version));
    return;
  }
  if (loaded.action === "version") {
    process.stdout.write(`${version}\n`);
    return;
  }
  const { options } = loaded;
  // V8 reads the growth factor at each full collection, so setting it now takes effect. Node
  // does not take this flag in NODE_OPTIONS, so the CLI sets it (README, "Memory under load"),
  // unless node was started with its own.
  const ownFlag = process.execArgv.some((flag) => flag.startsWith("--heap-growing-percent"));
  if (options.heapGrowingPercent > 0 && !ownFlag) {
    setFlagsFromString(`--heap-growing-percent=${options.heapGrowingPercent}`);
  }
  if (options.listen.kind === "stdio") {
    routeConsoleToStderr();
    // V8's interrupt budget and a full collection after each large upstream line (README,
    // "Startup flags").
    prepareStdioProcess(process.execArgv);
  }
  const logger = createProxyLogger(options.logLevel);
  let proxy: Awaited<ReturnType<typeof runProxy>>;
  try {
    proxy = await runProxy(options, { logger, version, readFile });
  } catch (error) {
    if (UsageError.isInstance(error)) refuse(error);
    throw error;
  }
  // Said once the proxy started: a refusal (exit 2) stays the one line it is.
  for (const warning of proxy.warnings) logger.warn(warning.message, { setting: warning.setting });
  if (proxy.url !== null) process.stderr.write(`listening on ${proxy.url}\n`);
  let signalled = false;
  const stop = (signal: NodeJS.Signals) => {
    if (signalled) {
      logger.warn(`second ${signal}: exiting without waiting`);
      process.exit(1);
    }
    signalled = true;
    logger.info(`${signal}: finishing in-flight calls, then closing upstreams`);
    void proxy.close();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const code = await proxy.ended;
  logger.info("stopped", { exitCode: code });
  logger.flush();
  process.exit(code);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bounded-mcp-proxy: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
