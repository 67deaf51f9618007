import {
  ENVIRONMENT_SETTINGS,
  type ParsedValue,
  parseBoolean,
  parseByteSize,
  parseDuration,
} from "@bounded-mcp/mcp-adapter";
import { OPTIONS, type OptionSpec } from "./option-table.js";
import { type CommandLine, parseCommandLine } from "./parse-command-line.js";
import { UsageError } from "./usage-error.js";

/** How much the proxy logs to stderr (pino levels; `silent` logs nothing). */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];
const STORE_KINDS = ["memory", "fs", "s3"];

/** The upstream server: a child process over stdio, or a streamable HTTP URL with headers. */
export type UpstreamOptions =
  | { kind: "stdio"; command: string; args: string[] }
  | { kind: "http"; url: URL; headers: Record<string, string> };

/** Where downstream clients connect: stdio (one client) or an HTTP endpoint. */
export type ListenOptions =
  | { kind: "stdio" }
  | { kind: "http"; host: string; port: number; path: string };

/** Everything the proxy runs with, validated; the adapter's own settings travel as environment. */
export interface ProxyOptions {
  upstream: UpstreamOptions;
  listen: ListenOptions;
  hooks: string | null;
  maxSessions: number;
  idleTimeoutMs: number;
  stateless: boolean;
  authTokensFile: string | null;
  allowedOrigins: string[];
  /** Host header values accepted besides the listen address (and its loopback aliases). */
  allowedHosts: string[];
  /** Largest HTTP request body in bytes; a larger one gets 413. */
  maxBodyBytes: number;
  logLevel: LogLevel;
  s3ForcePathStyle: boolean;
  /**
   * The environment resolveSettings reads: the process environment with the config file's adapter
   * settings beneath it and the flags' above it (flags > environment > file > defaults).
   */
  adapterEnvironment: Record<string, string | undefined>;
}

/** What the command line asks for: help, the version, or a proxy run with these options. */
export type LoadedOptions =
  | { action: "help" }
  | { action: "version" }
  | { action: "run"; options: ProxyOptions };

/** Where one value came from, as named in error messages. */
interface Sourced {
  value: unknown;
  label: string;
  origin: "flag" | "env" | "file";
}

type Environment = Readonly<Record<string, string | undefined>>;

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
  const known = new Set([...OPTIONS.map((spec) => spec.key), "command"]);
  for (const key of Object.keys(parsed)) {
    if (!known.has(key)) throw new UsageError(`--config ${path}: unknown key "${key}"`);
  }
  return parsed as Record<string, unknown>;
}

function envNamesOf(spec: OptionSpec): readonly string[] {
  return spec.setting ? ENVIRONMENT_SETTINGS[spec.setting].names : [spec.env];
}

function pick(
  spec: OptionSpec,
  line: CommandLine,
  environment: Environment,
  file: Record<string, unknown>,
  filePath: string,
): Sourced | undefined {
  const flag = line.values.get(spec.flag);
  if (flag !== undefined) return { value: flag, label: `--${spec.flag}`, origin: "flag" };
  for (const name of envNamesOf(spec)) {
    const text = environment[name];
    if (text !== undefined && text !== "") {
      const value = spec.kind === "list" ? splitList(spec, text) : text;
      return { value, label: name, origin: "env" };
    }
  }
  if (file[spec.key] !== undefined) {
    return { value: file[spec.key], label: `${filePath}: ${spec.key}`, origin: "file" };
  }
  return undefined;
}

function splitList(spec: OptionSpec, text: string): string[] {
  const separator = spec.flag === "upstream-header" ? /\r?\n/ : /,/;
  return text
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function asText(source: Sourced): string {
  const { value } = source;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  throw new UsageError(`${source.label}: expected a single value`);
}

function check<T>(source: Sourced, parsed: ParsedValue<T>): T {
  if (!parsed.ok)
    throw new UsageError(`${source.label}: expected ${parsed.expected}, got "${asText(source)}"`);
  return parsed.value;
}

function parseCount(text: string): ParsedValue<number> {
  const value = Number(text);
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(value) && value > 0
    ? { ok: true, value }
    : { ok: false, expected: "a whole number above 0" };
}

function parseListen(source: Sourced | undefined): ListenOptions {
  if (!source) return { kind: "stdio" };
  const text = asText(source);
  if (text === "stdio") return { kind: "stdio" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `${source.label}: expected stdio or http://<host>:<port>/<path>, got "${text}"`,
    );
  }
  if (url.protocol !== "http:" || url.port === "" || url.search !== "" || url.hash !== "") {
    throw new UsageError(
      `${source.label}: expected stdio or http://<host>:<port>/<path> (port 0 picks a free one), got "${text}"`,
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { kind: "http", host, port: Number(url.port), path: url.pathname };
}

function parseHeaders(source: Sourced | undefined): Record<string, string> {
  if (!source) return {};
  const { value } = source;
  const lines =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value).map(([name, text]) => `${name}: ${String(text)}`)
      : Array.isArray(value)
        ? value.map(String)
        : [asText(source)];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!match) throw new UsageError(`${source.label}: expected "Name: value", got "${line}"`);
    headers[match[1]!] = match[2]!;
  }
  return headers;
}

function parseUpstream(
  url: Sourced | undefined,
  headers: Record<string, string>,
  command: readonly string[],
): UpstreamOptions {
  if (url && command.length > 0) {
    throw new UsageError(`${url.label} and an upstream command were both given: use one of them`);
  }
  if (url) {
    const text = asText(url);
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new UsageError(`${url.label}: expected an http(s) URL, got "${text}"`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new UsageError(`${url.label}: expected an http(s) URL, got "${text}"`);
    }
    return { kind: "http", url: parsed, headers };
  }
  if (command.length === 0) {
    throw new UsageError(
      "no upstream: give a command after -- (bounded-mcp-proxy -- npx some-mcp-server) or --upstream-url <url>",
    );
  }
  return { kind: "stdio", command: command[0]!, args: command.slice(1) };
}

function parseOrigins(source: Sourced | undefined): string[] {
  if (!source) return [];
  const items = Array.isArray(source.value) ? source.value.map(String) : [asText(source)];
  return items.map((item) => {
    try {
      const origin = new URL(item).origin;
      if (origin === "null") throw new Error("opaque origin");
      return origin;
    } catch {
      throw new UsageError(
        `${source.label}: expected an origin such as https://app.example.com, got "${item}"`,
      );
    }
  });
}

function parseHosts(source: Sourced | undefined): string[] {
  if (!source) return [];
  const items = Array.isArray(source.value) ? source.value.map(String) : [asText(source)];
  return items.map((item) => {
    if (!/^[A-Za-z0-9.\-[\]:]+$/.test(item)) {
      throw new UsageError(
        `${source.label}: expected a host such as mcp.example.com or mcp.example.com:8080, got "${item}"`,
      );
    }
    return item.toLowerCase();
  });
}

function fileCommand(file: Record<string, unknown>, filePath: string): string[] {
  const command = file["command"];
  if (command === undefined) return [];
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    !command.every((part) => typeof part === "string")
  ) {
    throw new UsageError(`${filePath}: command: expected a non-empty array of strings`);
  }
  return command as string[];
}

/** Applies the adapter-setting options to a copy of the environment, flags over env over file. */
function adapterEnvironmentOf(
  environment: Environment,
  chosen: Map<OptionSpec, Sourced>,
): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...environment };
  for (const [spec, source] of chosen) {
    if (!spec.setting || source.origin === "env") continue;
    const text = asText(source);
    const setting = ENVIRONMENT_SETTINGS[spec.setting];
    check<unknown>(source, setting.parse(text) as ParsedValue<unknown>);
    if (spec.setting === "store" && !STORE_KINDS.includes(text)) {
      throw new UsageError(`${source.label}: expected memory, fs or s3, got "${text}"`);
    }
    for (const name of setting.names) delete merged[name];
    merged[setting.names[0]!] = text;
  }
  return merged;
}

/**
 * Reads the command line, the environment (BOUNDED_MCP_*) and an optional `--config` JSON file
 * into validated proxy options; precedence flags > environment > file > defaults. Any unusable
 * value throws a UsageError whose one-line message names the option as it was given.
 */
export function loadOptions(
  argv: readonly string[],
  environment: Environment,
  readFile: (path: string) => string,
): LoadedOptions {
  const line = parseCommandLine(argv);
  if (line.help) return { action: "help" };
  if (line.version) return { action: "version" };
  const filePath = line.config ?? environment["BOUNDED_MCP_CONFIG"] ?? null;
  const file = filePath ? readConfigFile(filePath, readFile) : {};
  const chosen = new Map<OptionSpec, Sourced>();
  for (const spec of OPTIONS) {
    const source = pick(spec, line, environment, file, filePath ?? "");
    if (source) chosen.set(spec, source);
  }
  const get = (flag: string) => [...chosen].find(([spec]) => spec.flag === flag)?.[1];
  const boolean = (flag: string, fallback: boolean) => {
    const source = get(flag);
    if (!source) return fallback;
    return typeof source.value === "boolean"
      ? source.value
      : check(source, parseBoolean(asText(source)));
  };
  const headers = parseHeaders(get("upstream-header"));
  const command = line.command.length > 0 ? line.command : fileCommand(file, filePath ?? "");
  const maxSessions = get("max-sessions");
  const idleTimeout = get("idle-timeout");
  const logLevel = get("log-level");
  if (logLevel && !LOG_LEVELS.includes(asText(logLevel) as LogLevel)) {
    throw new UsageError(
      `${logLevel.label}: expected one of ${LOG_LEVELS.join(", ")}, got "${asText(logLevel)}"`,
    );
  }
  const options: ProxyOptions = {
    upstream: parseUpstream(get("upstream-url"), headers, command),
    listen: parseListen(get("listen")),
    hooks: get("hooks") ? asText(get("hooks")!) : null,
    maxSessions: maxSessions ? check(maxSessions, parseCount(asText(maxSessions))) : 64,
    idleTimeoutMs: idleTimeout
      ? check(idleTimeout, parseDuration(asText(idleTimeout)))
      : 30 * 60_000,
    stateless: boolean("stateless", false),
    authTokensFile: get("auth-tokens") ? asText(get("auth-tokens")!) : null,
    allowedOrigins: parseOrigins(get("allowed-origin")),
    allowedHosts: parseHosts(get("allowed-host")),
    maxBodyBytes: get("max-body-bytes")
      ? check(get("max-body-bytes")!, parseByteSize(asText(get("max-body-bytes")!)))
      : 4 * 1024 * 1024,
    logLevel: logLevel ? (asText(logLevel) as LogLevel) : "info",
    s3ForcePathStyle: boolean("s3-force-path-style", false),
    adapterEnvironment: adapterEnvironmentOf(environment, chosen),
  };
  if (options.stateless && !options.authTokensFile) {
    throw new UsageError(
      "--stateless needs --auth-tokens: without sessions the caller scope comes from the token",
    );
  }
  if (options.listen.kind === "stdio" && options.stateless) {
    throw new UsageError("--stateless applies to --listen http://...: stdio serves one client");
  }
  return { action: "run", options };
}
