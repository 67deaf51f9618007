import { createBoundedRelay, type Logger, trackInFlight } from "@bounded-mcp/mcp-adapter";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadAuthTokens } from "../http/auth-tokens.js";
import { createHttpProxy, SHUTDOWN_GRACE_MS } from "../http/create-http-proxy.js";
import type { ProxyOptions } from "../options/load-options.js";
import { createProxyAdapter } from "./create-adapter.js";
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
 * UsageError before anything listens.
 */
export async function runProxy(
  options: ProxyOptions,
  dependencies: RunProxyDependencies,
): Promise<RunningProxy> {
  const { logger } = dependencies;
  const authTokens = options.authTokensFile
    ? loadAuthTokens(options.authTokensFile, dependencies.readFile)
    : null;
  const hooks = options.hooks === null ? undefined : await loadHooks(options.hooks);
  const bounded = await createProxyAdapter(options, logger);
  const relay = createBoundedRelay({
    bounded,
    upstream: toUpstreamSpec(options.upstream),
    ...(hooks === undefined ? {} : { hooks }),
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
    await relay.close();
    await bounded.dispose();
    markEnded(code);
  };

  if (options.listen.kind === "http") {
    const http = await createHttpProxy({
      ...options.listen,
      relay,
      authTokens,
      stateless: options.stateless,
      maxSessions: options.maxSessions,
      idleTimeoutMs: options.idleTimeoutMs,
      maxBodyBytes: options.maxBodyBytes,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      logger,
    });
    let closing: Promise<void> | undefined;
    return {
      url: http.url,
      ended,
      close: () => {
        closing ??= http.close().then(() => finish(0));
        return closing;
      },
    };
  }

  const tracked = trackInFlight(new StdioServerTransport());
  const session = await relay.connect(tracked.transport);
  let closing: Promise<void> | undefined;
  let stopRequested = false;
  let exitCode = 0;
  const close = () => {
    closing ??= (async () => {
      // An answer still in flight (a call, or the initialize's upstream error) is sent first.
      await tracked.whenIdle(SHUTDOWN_GRACE_MS);
      await session.close();
      await finish(exitCode);
    })();
    return closing;
  };
  const stop = () => {
    stopRequested = true;
    return close();
  };
  // One client, one upstream: an upstream that cannot be started ends the proxy with code 1,
  // unless a stop was asked for first (stdin closed before any initialize, a signal).
  session.ready.catch((error: unknown) => {
    if (stopRequested) return;
    exitCode = 1;
    logger.error("the upstream could not be started: exiting", {
      error: error instanceof Error ? error.message : String(error),
    });
    void close();
  });
  process.stdin.once("end", () => void stop());
  void session.closed.then(close);
  return { url: null, ended, close: stop };
}
