import { formatSettingsHelp } from "@bounded-mcp/mcp-adapter/settings";
import { MCP_RESPONSE_ALIASES } from "../runtime/child-environment.js";
import { N8N_TABLE } from "./n8n-settings.js";

const WIDTH = 34;

/**
 * The --help text: usage, every setting (the adapter's store and limit settings and the log
 * level) with its flag, variable(s), default, limits and relations, and what reaches n8n-mcp.
 */
export function formatN8nHelp(version: string, n8nMcpVersion: string): string {
  return [
    `n8n-mcp-bounded ${version}: n8n-mcp ${n8nMcpVersion} with bounded, queryable responses (stdio)`,
    "",
    "usage:",
    "  n8n-mcp-bounded [options]                          serve n8n-mcp over stdio",
    "  n8n-mcp-bounded telemetry <enable|disable|status>  n8n-mcp's own telemetry command",
    "",
    "options (each is a flag and an environment variable):",
    ...formatSettingsHelp(N8N_TABLE, {
      aliases: MCP_RESPONSE_ALIASES,
      fileKeys: false,
      width: WIDTH,
    }),
    `  ${"--help, -h / --version, -v".padEnd(WIDTH)}this text / the version`,
    "",
    "Precedence: flags, then the environment, then the defaults; two names of one setting must agree.",
    "Values: bytes as 32768, 32KiB or 64MB; durations as 250, 30m, 24h or 7d; booleans as",
    "--x / --no-x on the command line, true/false (1/0, yes/no, on/off) in the environment.",
    "Every other variable (N8N_API_URL, N8N_API_KEY, DISABLED_TOOLS, ...) is forwarded to n8n-mcp;",
    "its telemetry is off unless N8N_MCP_TELEMETRY_DISABLED=false.",
    "Exit codes: 0 stopped (signal, or the client closed stdin), 1 n8n-mcp could not be started,",
    "2 a bad option.",
    "",
  ].join("\n");
}
