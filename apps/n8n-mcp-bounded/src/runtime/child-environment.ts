import { withoutAdapterVariables } from "@bounded-mcp/mcp-adapter";

/** n8n-mcp's own switch for its anonymous usage telemetry. */
export const TELEMETRY_VARIABLE = "N8N_MCP_TELEMETRY_DISABLED";

/** This app's own variable besides the adapter's (which withoutAdapterVariables drops). */
const LOG_LEVEL_VARIABLE = "N8N_MCP_BOUNDED_LOG_LEVEL";

function telemetryExplicitlyOn(value: string | undefined): boolean {
  const normalized = value?.trim().toLowerCase();
  return normalized === "false" || normalized === "0";
}

/**
 * The environment of the n8n-mcp child: everything the user gave this process (N8N_API_URL,
 * N8N_API_KEY, DISABLED_TOOLS, WEBHOOK_SECURITY_MODE, NODE_DB_PATH, ...), so it is a drop-in for
 * `npx n8n-mcp`, minus the adapter's own settings (BOUNDED_MCP_*, MCP_RESPONSE_*: the child never
 * needs the cursor keys). n8n-mcp's telemetry is turned off (`N8N_MCP_TELEMETRY_DISABLED=true`)
 * unless the user set that variable to "false" (or "0") explicitly.
 */
export function createChildEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const child = withoutAdapterVariables(environment);
  delete child[LOG_LEVEL_VARIABLE];
  if (!telemetryExplicitlyOn(environment[TELEMETRY_VARIABLE])) child[TELEMETRY_VARIABLE] = "true";
  return child;
}
