import { withoutAdapterVariables } from "@bounded-mcp/mcp-adapter/settings";
import type { UpstreamSpec } from "@bounded-mcp/relay";
import type { UpstreamOptions } from "../options/load-options.js";

/**
 * The relay's upstream from the proxy's options. A child process inherits the proxy's
 * environment (API keys, PATH): a proxy is configured where its upstream is, and MCP client
 * configurations set variables on the proxy's command, meaning them for the server behind it.
 * The proxy's own settings (`BOUNDED_MCP_*`, `MCP_RESPONSE_*`) are left out: the key ring signs
 * artifact ids and cursors, and the server behind the proxy has no use for any of them.
 */
export function toUpstreamSpec(
  upstream: UpstreamOptions,
  environment: NodeJS.ProcessEnv = process.env,
): UpstreamSpec {
  if (upstream.kind === "http") {
    return { kind: "http", url: upstream.url, headers: upstream.headers };
  }
  const env = withoutAdapterVariables(environment);
  return { kind: "stdio", command: upstream.command, args: upstream.args, env };
}
