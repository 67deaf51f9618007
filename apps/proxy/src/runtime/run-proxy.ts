import { createBoundedRelay, type Logger } from "@bounded-mcp/mcp-adapter";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadAuthTokens } from "../http/auth-tokens.js";
import { createHttpProxy, SHUTDOWN_GRACE_MS } from "../http/create-http-proxy.js";
import type { ProxyOptions } from "../options/load-options.js";
import { createProxyAdapter } from "./create-adapter.js";
import { loadHooks } from "./load-hooks.js";
import { trackInFlight } from "./track-in-flight.js";
import { toUpstreamSpec } from "./upstream-spec.js";

/** A started proxy. */
export interface RunningProxy {
  /** The HTTP endpoint URL, or null in stdio mode. */
  readonly url: string | null;
  /** Resolves when the proxy has stopped (stdio: also when the client closed stdin). */
  readonly ended: Promise<void>;
  /** Graceful stop: in-flight calls finish, then sessions, upstreams (children) and the store close. */
  close(): Promise<void>;
}

/** What runProxy needs besides the options. */
export interface RunProxyDependencies {
  logger: Logger;
  version: string;
  readFile: (path: string) => string;
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
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
  let markEnded: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const finish = async () => {
    await relay.close();
    await bounded.dispose();
    markEnded();
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
        closing ??= http.close().then(finish);
        return closing;
      },
    };
  }

  const tracked = trackInFlight(new StdioServerTransport());
  const session = await relay.connect(tracked.transport);
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await Promise.race([tracked.whenIdle(), delay(SHUTDOWN_GRACE_MS)]);
      await session.close();
      await finish();
    })();
    return closing;
  };
  // The client closing stdin (or the session ending otherwise) stops the proxy.
  process.stdin.once("end", () => void close());
  void session.closed.then(close);
  return { url: null, ended, close };
}
