import { OPTIONS } from "./option-table.js";

/** The --help text: usage, every option with its environment name, and the precedence rule. */
export function formatHelp(version: string): string {
  const rows = OPTIONS.map((spec) => {
    const left = `--${spec.kind === "boolean" ? `[no-]${spec.flag}` : spec.flag}${spec.argument ? ` ${spec.argument}` : ""}`;
    return `  ${left.padEnd(34)}${spec.help}\n  ${"".padEnd(34)}env ${spec.env}, config "${spec.key}"`;
  });
  return [
    `bounded-mcp-proxy ${version}: bound any MCP server's oversized tool results`,
    "",
    "usage:",
    "  bounded-mcp-proxy [options] -- <command> [args...]   upstream is a child process over stdio",
    "  bounded-mcp-proxy [options] --upstream-url <url>     upstream over streamable HTTP",
    "",
    "options:",
    ...rows,
    `  ${"--config <file.json>".padEnd(34)}options as JSON (same keys; "command": [...] for the child)`,
    `  ${"".padEnd(34)}env BOUNDED_MCP_CONFIG`,
    `  ${"--help, --version".padEnd(34)}this text, the version`,
    "",
    "Precedence: flags, then the environment, then the config file, then the defaults.",
    "Keys: BOUNDED_MCP_KEYS=[kid:]secret,... (hex 64+ chars) shares ids and cursors between replicas.",
    "Exit codes: 0 stopped (signal, or the client closed stdin), 1 the upstream could not be",
    "started (stdio) or an unexpected failure, 2 a bad option.",
    "",
  ].join("\n");
}
