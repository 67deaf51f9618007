import { withoutAdapterVariables } from "@bounded-mcp/mcp-adapter/settings";

/**
 * The adapter settings' older names, from the n8n-mcp pull request "bound tool responses with
 * queryable artifacts", by setting name (`ADAPTER_SETTINGS`): an n8n-mcp deployment keeps its
 * configuration. Read beside the `BOUNDED_MCP_*` names (two names of one setting must agree) and,
 * like them, never forwarded to the child.
 */
export const MCP_RESPONSE_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  inlineBytes: ["MCP_RESPONSE_INLINE_BYTES"],
  previewBytes: ["MCP_RESPONSE_PREVIEW_BYTES"],
  hardBytes: ["MCP_RESPONSE_HARD_BYTES"],
  artifactMaxBytes: ["MCP_RESPONSE_ARTIFACT_MAX_BYTES"],
  ttl: ["MCP_RESPONSE_ARTIFACT_TTL_MS"],
  quotaBytes: ["MCP_RESPONSE_ARTIFACT_QUOTA_BYTES"],
  storeDir: ["MCP_RESPONSE_ARTIFACT_ROOT"],
  keys: ["MCP_RESPONSE_CURSOR_KEY"],
});

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
