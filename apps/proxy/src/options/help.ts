import { formatSettingsHelp } from "@bounded-mcp/mcp-adapter/settings";
import { PROXY_TABLE } from "./proxy-settings.js";

const WIDTH = 34;

/**
 * The --help text: usage, then every setting of the table (the adapter's and the proxy's) with
 * its flag, variable, config key, default, limits and relations, then the options that are no
 * setting, the precedence rule and the exit codes.
 */
export function formatHelp(version: string): string {
  const option = (usage: string, text: string) => `  ${usage.padEnd(WIDTH)}${text}`;
  return [
    `bounded-mcp-proxy ${version}: bound any MCP server's oversized tool results`,
    "",
    "usage:",
    "  bounded-mcp-proxy [options] -- <command> [args...]   upstream is a child process over stdio",
    "  bounded-mcp-proxy [options] --upstream-url <url>     upstream over streamable HTTP",
    "",
    "options (each is a flag, an environment variable and a config-file key):",
    ...formatSettingsHelp(PROXY_TABLE, { width: WIDTH }),
    option("--config <file.json>", 'options as JSON (same keys; "command": [...] for the child)'),
    `${" ".repeat(WIDTH + 2)}env BOUNDED_MCP_CONFIG`,
    option("--help, -h / --version, -v", "this text / the version"),
    "",
    "Precedence: flags, then the environment, then the config file, then the defaults.",
    "Values: bytes as 32768, 32KiB or 64MB; durations as 250, 30m, 24h or 7d; booleans as",
    "--x / --no-x on the command line, true/false (1/0, yes/no, on/off) elsewhere.",
    "Keys: BOUNDED_MCP_KEYS=[kid:]secret,... (hex 64+ chars) shares ids and cursors between replicas.",
    "Exit codes: 0 stopped (signal, or the client closed stdin), 1 the upstream could not be",
    "started (stdio) or an unexpected failure, 2 a bad option.",
    "",
  ].join("\n");
}
