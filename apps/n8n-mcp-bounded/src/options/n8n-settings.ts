import type { SettingsOptions } from "@bounded-mcp/mcp-adapter";
import {
  ADAPTER_SETTINGS,
  defineSetting,
  type Environment,
  type ResolvedSettings,
  resolveSettingsWith,
  SETTING_KINDS,
} from "@bounded-mcp/mcp-adapter/settings";
import { MCP_RESPONSE_ALIASES } from "../runtime/child-environment.js";
import { LOG_LEVELS } from "../runtime/create-stderr-logger.js";

/** The default authority of descriptor URIs: `artifact://n8n-mcp/<id>`. */
export const N8N_MCP_NAMESPACE = "n8n-mcp";

/**
 * The adapter's rows as this app uses them: the namespace defaults to `n8n-mcp`; the store's
 * default, as the CLI applies it, is the fs store in the user's cache folder.
 */
export const N8N_ADAPTER_SETTINGS = Object.freeze({
  ...ADAPTER_SETTINGS,
  store: { ...ADAPTER_SETTINGS.store, defaultText: "fs in the user's cache folder" },
  namespace: { ...ADAPTER_SETTINGS.namespace, default: N8N_MCP_NAMESPACE },
});

/** This app's own rows, of the same shape as the adapter's. */
export const N8N_SETTINGS = Object.freeze({
  logLevel: defineSetting({
    flag: "log-level",
    env: "N8N_MCP_BOUNDED_LOG_LEVEL",
    value: SETTING_KINDS.oneOf(LOG_LEVELS, "<level>"),
    default: "info",
    help: "debug, info, warn, error or silent (JSON lines on stderr)",
  }),
});

/** Every setting of n8n-mcp-bounded: the adapter's rows, then the app's own. */
export const N8N_TABLE = Object.freeze({ ...N8N_ADAPTER_SETTINGS, ...N8N_SETTINGS });

/** What resolveN8nSettings reads. */
export interface N8nSettingsInput {
  environment: Environment;
  /** The command line's values (`readCommandLine(N8N_TABLE, argv).values`). */
  flags?: Readonly<Record<string, unknown>>;
  /** Settings given in code. */
  options?: SettingsOptions;
}

/**
 * The app's settings, read once: flags, then the environment (`BOUNDED_MCP_*` and the older
 * `MCP_RESPONSE_*` names, which must agree), then the defaults (namespace `n8n-mcp`). Throws one
 * SettingsError naming every problem by the flag or variable the user used.
 */
export function resolveN8nSettings(input: N8nSettingsInput): ResolvedSettings<typeof N8N_SETTINGS> {
  return resolveSettingsWith(N8N_SETTINGS, {
    table: N8N_ADAPTER_SETTINGS,
    aliases: MCP_RESPONSE_ALIASES,
    environment: input.environment,
    ...(input.flags === undefined ? {} : { flags: input.flags }),
    ...(input.options === undefined ? {} : { options: input.options }),
  });
}
