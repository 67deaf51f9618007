/**
 * Names that configure bounded-mcp: `BOUNDED_MCP_*`, and `MCP_RESPONSE_*`, the older names
 * n8n-mcp-bounded still reads (one of them holds the cursor key ring).
 */
const ADAPTER_VARIABLE = /^(BOUNDED_MCP_|MCP_RESPONSE_)/;

/**
 * The environment an upstream child process gets: this process's environment without unset
 * values and without any `BOUNDED_MCP_*` / `MCP_RESPONSE_*` variable. Those configure the adapter
 * (BOUNDED_MCP_KEYS is the key ring that signs artifact ids and cursors); the server behind it
 * has no use for them and must never see the keys. Both apps start their children with it.
 */
export function withoutAdapterVariables(
  environment: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const child: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && !ADAPTER_VARIABLE.test(name)) child[name] = value;
  }
  return child;
}
