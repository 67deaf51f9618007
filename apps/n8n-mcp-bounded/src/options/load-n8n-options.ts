import { BoundedMcpError } from "@bounded-mcp/contract";
import { type AdapterSettings, SettingsError } from "@bounded-mcp/mcp-adapter";
import {
  type Environment,
  readCommandLine,
  type SettingsWarning,
} from "@bounded-mcp/mcp-adapter/settings";
import { MCP_RESPONSE_ALIASES } from "../runtime/child-environment.js";
import type { LogLevel } from "../runtime/create-stderr-logger.js";
import { N8N_TABLE, resolveN8nSettings } from "./n8n-settings.js";

/** What the command line asks for: help, the version, n8n-mcp's telemetry command, or a run. */
export type N8nCommand =
  | { action: "help" }
  | { action: "version" }
  | { action: "telemetry"; args: string[] }
  | {
      action: "run";
      settings: AdapterSettings;
      logLevel: LogLevel;
      /** What to log once the logger exists (a random key ring). */
      warnings: SettingsWarning[];
      /**
       * Whether a flag or variable named the store kind (`--store memory` included): without
       * one, the CLI runs on the fs store in the user's cache folder.
       */
      storeChosen: boolean;
    };

/**
 * A command line or settings problem, as the one line the CLI prints before exiting with 2.
 * Recognise it with `N8nUsageError.isInstance` (see the contract's BoundedMcpError).
 */
export class N8nUsageError extends BoundedMcpError<"USAGE"> {
  static override readonly kind = "n8n-mcp-bounded.N8nUsageError";

  constructor(message: string) {
    super("USAGE", message);
  }
}

const KNOWN_VARIABLES = new Set([
  ...Object.values(N8N_TABLE).map((setting) => setting.env),
  ...Object.values(MCP_RESPONSE_ALIASES).flat(),
]);

/**
 * `BOUNDED_MCP_*` and `MCP_RESPONSE_*` names that are no setting: said once, because they are
 * neither read here nor forwarded to n8n-mcp (a mistyped name would otherwise be lost unseen).
 */
function unreadNames(environment: Environment): SettingsWarning[] {
  return Object.entries(environment)
    .filter(
      ([name, value]) =>
        /^(BOUNDED_MCP_|MCP_RESPONSE_)/.test(name) &&
        value !== undefined &&
        value.trim() !== "" &&
        !KNOWN_VARIABLES.has(name),
    )
    .map(([name]) => ({
      message: `${name} is not a setting of n8n-mcp-bounded (see --help); it is not forwarded to n8n-mcp either`,
      setting: name,
    }));
}

/**
 * Reads `n8n-mcp-bounded [options]` (node:util parseArgs, the adapter's store and limit flags plus
 * `--log-level`) and the environment into the app's settings, once. `telemetry ...` is passed to
 * n8n-mcp untouched. An unknown flag or a bad value throws an N8nUsageError whose one line names
 * the flag or variable as the user gave it, every problem at once.
 */
export function loadN8nOptions(argv: readonly string[], environment: Environment): N8nCommand {
  if (argv[0] === "telemetry") return { action: "telemetry", args: [...argv] };
  try {
    const line = readCommandLine(N8N_TABLE, argv, {
      positionalHint: "n8n-mcp-bounded takes options only (and n8n-mcp's telemetry command)",
    });
    if (line.help) return { action: "help" };
    if (line.version) return { action: "version" };
    if (line.command.length > 0) {
      throw new N8nUsageError(
        `unexpected arguments after --: ${line.command.join(" ")} (n8n-mcp-bounded starts n8n-mcp itself)`,
      );
    }
    const { settings, values, warnings } = resolveN8nSettings({ environment, flags: line.values });
    return {
      action: "run",
      settings,
      logLevel: values.logLevel,
      warnings: [...warnings, ...unreadNames(environment)],
      storeChosen:
        line.values.store !== undefined || (environment.BOUNDED_MCP_STORE ?? "").trim() !== "",
    };
  } catch (error) {
    if (SettingsError.isInstance(error)) {
      throw new N8nUsageError(error.issues.map((issue) => issue.message).join("; "));
    }
    throw error;
  }
}
