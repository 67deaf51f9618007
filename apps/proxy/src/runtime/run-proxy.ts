import type { Logger } from "@bounded-mcp/mcp-adapter";
import type { SettingsWarning } from "@bounded-mcp/mcp-adapter/settings";
import { createBoundedRelay, serveStdio } from "@bounded-mcp/relay";
import { loadAuthTokens } from "../http/auth-tokens.js";
import type { ProxyOptions } from "../options/load-options.js";
import { checkS3Bucket } from "./check-s3-bucket.js";
import { chooseStdioStore } from "./choose-stdio-store.js";
import { createProxyAdapter } from "./create-adapter.js";
import { findCommand } from "./find-command.js";
import { loadHooks } from "./load-hooks.js";
import { toUpstreamSpec } from "./upstream-spec.js";

/** A started proxy. */
export interface RunningProxy {
  /** The HTTP endpoint URL, or null in stdio mode. */
  readonly url: string | null;
  /**
   * Resolves with the process exit code once the proxy has stopped: 0 after close() or (stdio)
   * the client closing stdin, 1 when (stdio) the upstream could not be started or connected.
   */
  readonly ended: Promise<number>;
  /** Graceful stop: in-flight calls finish, then sessions, upstreams (children) and the store close. */
  close(): Promise<void>;
  /**
   * The options' warnings that still hold once the store is chosen (the random key ring one is
   * gone when the key file of the user's cache folder is used): log them once started.
   */
  readonly warnings: readonly SettingsWarning[];
}

/** What runProxy needs besides the options. */
export interface RunProxyDependencies {
  logger: Logger;
  version: string;
  readFile: (path: string) => string;
}

/**
 * Starts bounded-mcp-proxy from validated options: one adapter (store, key ring) and one bounded
 * relay for the process, then either one stdio downstream with one upstream, or the HTTP
 * listener. Unusable options (adapter settings, the token file, the hooks module) throw a
 * UsageError before anything listens; an upstream command not found on PATH throws an Error
 * (the CLI exits 1).
 */
export async function runProxy(
  options: ProxyOptions,
  dependencies: RunProxyDependencies,
): Promise<RunningProxy> {
  const { logger } = dependencies;
  // A missing command never starts: say so now (exit 1), not at the first client's initialize,
  // which may never come (a client that closes stdin at once).
  if (options.upstream.kind === "stdio" && findCommand(options.upstream.command) === null) {
    throw new Error(
      `upstream command "${options.upstream.command}" was not found: is it installed and on PATH?`,
    );
  }
  // The HTTP listener and its metrics (node:http's server, prom-client) are loaded only when
  // listening on HTTP: a stdio proxy never runs them (README, "Startup flags").
  const httpModules =
    options.listen.kind === "http"
      ? await Promise.all([import("../http/create-http-proxy.js"), import("../http/metrics.js")])
      : null;
  const authTokens = options.authTokensFile
    ? loadAuthTokens(options.authTokensFile, dependencies.readFile)
    : null;
  const hooks = options.hooks === null ? undefined : await loadHooks(options.hooks);
  if (options.settings.store.kind === "s3") await checkS3Bucket(options.settings.store);
  const chosen = chooseStdioStore(options, logger);
  const bounded = await createProxyAdapter(chosen.options, logger, hooks?.redact);
  const { warnings } = chosen.options;
  // /metrics reads the relay's stats at scrape time and gets each call's event as it is answered.
  const metrics =
    httpModules !== null
      ? httpModules[1].createProxyMetrics({
          stats: () => relay.stats(),
          get sessionCount() {
            return relay.sessionCount;
          },
        })
      : null;
  const relay = createBoundedRelay({
    bounded,
    ...(metrics === null ? {} : { onToolCall: (event) => metrics.observe(event) }),
    upstream: toUpstreamSpec(options.upstream),
    ...(hooks === undefined ? {} : { hooks: hooks.tools }),
    logger,
    statelessClient: {
      clientInfo: { name: "bounded-mcp-proxy", version: dependencies.version },
      capabilities: {},
    },
  });
  let markEnded: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => {
    markEnded = resolve;
  });
  const finish = async (code: number) => {
    // The summary of the whole run, once: what bounding saved, how the parse cache did.
    logger.info("stats at exit", { ...relay.stats().totals });
    await relay.close();
    await bounded.dispose();
    markEnded(code);
  };

  if (options.listen.kind === "http" && httpModules !== null) {
    const http = await httpModules[0].createHttpProxy({
      ...options.listen,
      relay,
      authTokens,
      stateless: options.stateless,
      maxSessions: options.maxSessions,
      ...(options.maxSessionsPerPrincipal === null
        ? {}
        : { maxSessionsPerPrincipal: options.maxSessionsPerPrincipal }),
      idleTimeoutMs: options.idleTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      metrics,
      logger,
    });
    let closing: Promise<void> | undefined;
    return {
      url: http.url,
      ended,
      warnings,
      close: () => {
        closing ??= http.close().then(() => finish(0));
        return closing;
      },
    };
  }

  // The stdio lifecycle both apps share; signals stay the CLI's (it handles them in both modes).
  // serveStdio's own grace: STDIO_SHUTDOWN_GRACE_MS (30 s) for the answers in flight.
  const serving = await serveStdio(relay, { logger });
  const finished = serving.ended.then(finish);
  return {
    url: null,
    ended,
    warnings,
    close: async () => {
      await serving.stop();
      await finished;
    },
  };
}
