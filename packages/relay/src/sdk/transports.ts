import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The SDK's safe child environment (HOME, LOGNAME, PATH, SHELL, TERM, USER from this process). */
export function defaultChildEnvironment(): Record<string, string> {
  return getDefaultEnvironment();
}

/**
 * The SDK's streamable HTTP client transport to `url`, sending `headers` with every request,
 * through `fetch` when given (the relay's guard against non-object results).
 */
export function createHttpClientTransport(
  url: URL,
  headers: Readonly<Record<string, string>> | undefined,
  fetch?: typeof globalThis.fetch,
): Transport {
  return new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { ...headers } },
    ...(fetch === undefined ? {} : { fetch }),
  });
}
