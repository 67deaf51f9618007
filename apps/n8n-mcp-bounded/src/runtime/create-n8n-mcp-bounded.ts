import {
  type AdapterSettings,
  type BoundedMcp,
  createBoundedMcp,
  type Logger,
  type SettingsOptions,
  SILENT_LOGGER,
} from "@bounded-mcp/mcp-adapter";
import {
  type BoundedRelay,
  type BoundedRelayOptions,
  createBoundedRelay,
} from "@bounded-mcp/relay";
import { resolveN8nSettings } from "../options/n8n-settings.js";
import { createN8nPreviewHook } from "../previews/n8n-preview-hook.js";
import { createChildEnvironment } from "./child-environment.js";
import { resolveN8nMcpEntry } from "./n8n-mcp-entry.js";
import { N8N_QUERY_TOOL_NOTE } from "./query-tool-note.js";

export { N8N_MCP_NAMESPACE } from "../options/n8n-settings.js";

/** Options of {@link createN8nMcpBounded}. */
export interface N8nMcpBoundedOptions {
  /**
   * Read for the adapter's settings (MCP_RESPONSE_*, BOUNDED_MCP_*) and forwarded to the n8n-mcp
   * child (see createChildEnvironment). Default process.env.
   */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Settings given in code; each wins over its environment variable (tests use it). */
  settings?: SettingsOptions;
  /**
   * Settings already resolved (the CLI reads flags, environment and defaults once, with
   * resolveN8nSettings); then `settings` and the environment are not read for them.
   */
  resolvedSettings?: AdapterSettings;
  /** Receives the child's stderr, restarts and warnings; silent by default. */
  logger?: Logger;
  /** Restart policy of the child; the relay's defaults (250 ms doubling to 30 s, 10 attempts). */
  restart?: BoundedRelayOptions["restart"];
}

/** n8n-mcp behind the adapter: connect a downstream transport to `relay`. */
export interface N8nMcpBounded {
  /** The adapter: settings, store, stats. */
  readonly bounded: BoundedMcp;
  /** Serves downstream connections; each gets its own n8n-mcp child. */
  readonly relay: BoundedRelay;
  /** Closes every session (ending their children) and releases the store. */
  close(): Promise<void>;
}

/**
 * Puts the pinned, unmodified n8n-mcp behind the bounded-mcp relay: one adapter with the
 * n8n-aware preview hook and the n8n query example, namespace `n8n-mcp` unless configured, and a
 * relay whose upstream is n8n-mcp's own stdio entry run by this Node as a child process with the
 * forwarded environment. Settings errors throw a SettingsError here, before any child starts.
 */
export function createN8nMcpBounded(options: N8nMcpBoundedOptions = {}): N8nMcpBounded {
  const environment = options.environment ?? process.env;
  const logger = options.logger ?? SILENT_LOGGER;
  let resolvedSettings = options.resolvedSettings;
  if (resolvedSettings === undefined) {
    const resolved = resolveN8nSettings({
      environment,
      ...(options.settings === undefined ? {} : { options: options.settings }),
    });
    for (const warning of resolved.warnings) {
      logger.warn(warning.message, { setting: warning.setting });
    }
    resolvedSettings = resolved.settings;
  }
  const bounded = createBoundedMcp({
    resolvedSettings,
    logger,
    preview: createN8nPreviewHook({ logger }),
    queryToolNote: N8N_QUERY_TOOL_NOTE,
  });
  const relay = createBoundedRelay({
    bounded,
    upstream: {
      kind: "stdio",
      command: process.execPath,
      args: [resolveN8nMcpEntry()],
      env: createChildEnvironment(environment),
      name: "n8n-mcp",
      stderrPrefix: "[n8n-mcp] ",
    },
    logger,
    ...(options.restart === undefined ? {} : { restart: options.restart }),
  });
  return {
    bounded,
    relay,
    async close() {
      await relay.close();
      await bounded.dispose();
    },
  };
}
