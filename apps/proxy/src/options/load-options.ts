import { type AdapterSettings, SettingsError } from "@bounded-mcp/mcp-adapter";
import {
  type Environment,
  readCommandLine,
  resolveSettingsWith,
  type SettingsWarning,
} from "@bounded-mcp/mcp-adapter/settings";
import {
  type ListenOptions,
  type LogLevel,
  PROXY_SETTINGS,
  PROXY_TABLE,
} from "./proxy-settings.js";
import { UsageError } from "./usage-error.js";

export type { ListenOptions, LogLevel } from "./proxy-settings.js";

/** The upstream server: a child process over stdio, or a streamable HTTP URL with headers. */
export type UpstreamOptions =
  | { kind: "stdio"; command: string; args: string[] }
  | { kind: "http"; url: URL; headers: Record<string, string> };

/** Everything the proxy runs with, validated, read once from flags, environment, file, defaults. */
export interface ProxyOptions {
  upstream: UpstreamOptions;
  listen: ListenOptions;
  hooks: string | null;
  maxSessions: number;
  /** Sessions of one authenticated principal; null: max(1, floor(maxSessions / 4)). */
  maxSessionsPerPrincipal: number | null;
  idleTimeoutMs: number;
  stateless: boolean;
  authTokensFile: string | null;
  allowedOrigins: string[];
  /** Host header values accepted besides the listen address (and its loopback aliases). */
  allowedHosts: string[];
  /** Largest HTTP request body in bytes; a larger one gets 413. */
  maxBodyBytes: number;
  /** Longest wait for a request's headers, in ms. */
  headersTimeoutMs: number;
  /** Longest wait for a POST body once its headers arrived, in ms. */
  bodyTimeoutMs: number;
  logLevel: LogLevel;
  /**
   * V8's `--heap-growing-percent`, applied by the CLI at start (0: V8's own growth): how far the
   * heap may grow past its live size before the next full collection (README, "Memory under load").
   */
  heapGrowingPercent: number;
  /** The adapter's settings (store, limits, key ring), resolved with the rest: hand them on as is. */
  settings: AdapterSettings;
  /** What to log once the logger exists (a random key ring, names this proxy does not read). */
  warnings: SettingsWarning[];
  /**
   * Whether a flag, variable or config key named the store kind (`--store memory` included):
   * without one, stdio runs on the fs store in the user's cache folder (see runProxy).
   */
  storeChosen: boolean;
}

/** What the command line asks for: help, the version, or a proxy run with these options. */
export type LoadedOptions =
  | { action: "help" }
  | { action: "version" }
  | { action: "run"; options: ProxyOptions };

/** The one line a SettingsError becomes on the command line: its problems, `; `-separated. */
function usageErrorOf(error: SettingsError): UsageError {
  return new UsageError(error.issues.map((issue) => issue.message).join("; "));
}

function readConfigFile(path: string, readFile: (path: string) => string): Record<string, unknown> {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    throw new UsageError(`--config ${path}: cannot read it (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config ${path}: not JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(`--config ${path}: expected a JSON object of options`);
  }
  for (const key of Object.keys(parsed)) {
    if (key !== "command" && !Object.hasOwn(PROXY_TABLE, key)) {
      throw new UsageError(`--config ${path}: unknown key "${key}"`);
    }
  }
  return parsed as Record<string, unknown>;
}

function fileCommand(file: Record<string, unknown>, filePath: string): string[] {
  const command = file.command;
  if (command === undefined) return [];
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === "string")
  ) {
    throw new UsageError(`"command" in ${filePath}: expected a non-empty array of strings`);
  }
  return command as string[];
}

function upstreamOf(
  url: string | null,
  urlLabel: string,
  headers: [string, string][],
  command: readonly string[],
): UpstreamOptions {
  if (url !== null && command.length > 0) {
    throw new UsageError(`${urlLabel} and an upstream command were both given: use one of them`);
  }
  if (url !== null)
    return { kind: "http", url: new URL(url), headers: Object.fromEntries(headers) };
  if (command.length === 0) {
    throw new UsageError(
      "no upstream: give a command after -- (bounded-mcp-proxy -- npx some-mcp-server) or --upstream-url <url>",
    );
  }
  return { kind: "stdio", command: command[0] as string, args: command.slice(1) };
}

const KNOWN_VARIABLES = new Set([
  "BOUNDED_MCP_CONFIG",
  ...Object.values(PROXY_TABLE).map((setting) => setting.env),
]);

/**
 * Variables that look like settings but are read by no one here, said once so that no value is
 * lost unseen: a mistyped `BOUNDED_MCP_*` name, or one of n8n-mcp-bounded's `MCP_RESPONSE_*`.
 */
function unreadNames(environment: Environment): SettingsWarning[] {
  const warnings: SettingsWarning[] = [];
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined || value.trim() === "") continue;
    if (name.startsWith("MCP_RESPONSE_")) {
      warnings.push({
        message: `${name} is not read by bounded-mcp-proxy (MCP_RESPONSE_* are n8n-mcp-bounded's names): use the BOUNDED_MCP_* variable (see --help)`,
        setting: name,
      });
    } else if (name.startsWith("BOUNDED_MCP_") && !KNOWN_VARIABLES.has(name)) {
      warnings.push({
        message: `${name} is not a setting of bounded-mcp-proxy (see --help)`,
        setting: name,
      });
    }
  }
  return warnings;
}

/**
 * Reads the command line (node:util parseArgs, flags generated from the settings table), the
 * environment (BOUNDED_MCP_*) and an optional `--config` JSON file into validated options, once;
 * precedence flags > environment > file > defaults. Any unusable value throws a UsageError whose
 * one-line message names the value as the user gave it (`--inline-bytes 40: must be at least
 * 4096`), every problem at once.
 */
export function loadOptions(
  argv: readonly string[],
  environment: Environment,
  readFile: (path: string) => string,
): LoadedOptions {
  try {
    const line = readCommandLine(PROXY_TABLE, argv, {
      extraFlags: ["config"],
      positionalHint: "put the upstream command after --",
    });
    if (line.help) return { action: "help" };
    if (line.version) return { action: "version" };
    const configVariable = environment.BOUNDED_MCP_CONFIG?.trim();
    const filePath = line.extra.config ?? (configVariable || null);
    const file = filePath === null ? {} : readConfigFile(filePath, readFile);
    const { settings, values, labels, warnings } = resolveSettingsWith(PROXY_SETTINGS, {
      flags: line.values,
      environment,
      ...(filePath === null ? {} : { file: { path: filePath, values: file } }),
    });
    const command = line.command.length > 0 ? line.command : fileCommand(file, filePath ?? "");
    const options: ProxyOptions = {
      upstream: upstreamOf(values.upstreamUrl, labels.upstreamUrl, values.upstreamHeader, command),
      listen: values.listen,
      hooks: values.hooks,
      maxSessions: values.maxSessions,
      maxSessionsPerPrincipal: values.maxSessionsPerPrincipal,
      idleTimeoutMs: values.idleTimeout,
      stateless: values.stateless,
      authTokensFile: values.authTokens,
      allowedOrigins: values.allowedOrigin,
      allowedHosts: values.allowedHost,
      maxBodyBytes: values.maxBodyBytes,
      headersTimeoutMs: values.headersTimeout,
      bodyTimeoutMs: values.bodyTimeout,
      logLevel: values.logLevel,
      heapGrowingPercent: values.heapGrowingPercent,
      settings,
      warnings: [...warnings, ...unreadNames(environment)],
      storeChosen:
        line.values.store !== undefined ||
        (environment.BOUNDED_MCP_STORE ?? "").trim() !== "" ||
        file.store !== undefined,
    };
    return { action: "run", options };
  } catch (error) {
    if (SettingsError.isInstance(error)) throw usageErrorOf(error);
    throw error;
  }
}
