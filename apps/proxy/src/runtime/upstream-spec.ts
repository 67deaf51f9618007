import type { UpstreamSpec } from "@bounded-mcp/mcp-adapter";
import type { UpstreamOptions } from "../options/load-options.js";

/**
 * The relay's upstream from the proxy's options. A child process inherits the proxy's whole
 * environment (API keys, PATH): a proxy is configured where its upstream is, and MCP client
 * configurations set variables on the proxy's command, meaning them for the server behind it.
 */
export function toUpstreamSpec(
  upstream: UpstreamOptions,
  environment: NodeJS.ProcessEnv = process.env,
): UpstreamSpec {
  if (upstream.kind === "http") {
    return { kind: "http", url: upstream.url, headers: upstream.headers };
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined) env[name] = value;
  }
  return { kind: "stdio", command: upstream.command, args: upstream.args, env };
}
