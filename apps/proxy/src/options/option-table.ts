import { ENVIRONMENT_SETTINGS } from "@bounded-mcp/mcp-adapter";

/** A path of the adapter's settings that the environment can set. */
export type EnvironmentSettingPath = keyof typeof ENVIRONMENT_SETTINGS;

/** How a proxy option's text turns into a value. */
export type OptionKind = "text" | "boolean" | "integer" | "duration" | "list";

/** One option: its flag, environment name, config-file key, and what it configures. */
export interface OptionSpec {
  /** `--inline-bytes` without the dashes. */
  flag: string;
  /** The key in a `--config` JSON file (camelCase of the flag). */
  key: string;
  /** The BOUNDED_MCP_* environment name. */
  env: string;
  kind: OptionKind;
  /** Set when the adapter's own settings read it: the value is handed to resolveSettings. */
  setting?: EnvironmentSettingPath;
  /** One line for --help. */
  help: string;
  /** Shown in --help as the argument name. */
  argument?: string;
}

function camel(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function option(
  flag: string,
  kind: OptionKind,
  help: string,
  extra: { setting?: EnvironmentSettingPath; argument?: string; env?: string } = {},
): OptionSpec {
  const setting = extra.setting;
  const env = extra.env ?? (setting ? ENVIRONMENT_SETTINGS[setting].names[0]! : undefined);
  return {
    flag,
    key: camel(flag),
    env: env ?? `BOUNDED_MCP_${flag.toUpperCase().replace(/-/g, "_")}`,
    kind,
    help,
    ...(setting ? { setting } : {}),
    ...(extra.argument ? { argument: extra.argument } : {}),
  };
}

/**
 * Every option of bounded-mcp-proxy. Each is a flag, a BOUNDED_MCP_* variable and a config-file
 * key; precedence is flags, then the environment, then the file, then the defaults.
 */
export const OPTIONS: readonly OptionSpec[] = [
  option("upstream-url", "text", "upstream MCP server over streamable HTTP", { argument: "<url>" }),
  option("upstream-header", "list", 'header sent upstream, "Name: value" (repeatable)', {
    argument: "<header>",
    env: "BOUNDED_MCP_UPSTREAM_HEADERS",
  }),
  option("listen", "text", "stdio (default) or http://<host>:<port>/mcp", { argument: "<where>" }),
  option("store", "text", "artifact store: memory (default), fs or s3", {
    setting: "store",
    argument: "<kind>",
  }),
  option("store-dir", "text", "folder of the fs store", { setting: "storeDir", argument: "<dir>" }),
  option("s3-bucket", "text", "bucket of the s3 store", {
    setting: "s3.bucket",
    argument: "<name>",
  }),
  option("s3-prefix", "text", "key prefix in the bucket", {
    setting: "s3.prefix",
    argument: "<prefix>",
  }),
  option("s3-endpoint", "text", "S3-compatible endpoint URL (MinIO, R2, ...)", {
    setting: "s3.endpoint",
    argument: "<url>",
  }),
  option("s3-region", "text", "S3 region", { setting: "s3.region", argument: "<region>" }),
  option("s3-force-path-style", "boolean", "path-style bucket addressing (MinIO, s3rver)"),
  option("inline-bytes", "text", "results up to this size pass through (default 32KiB)", {
    setting: "limits.inlineBytes",
    argument: "<bytes>",
  }),
  option("preview-bytes", "text", "size of the bounded envelope (default 8KiB)", {
    setting: "limits.previewBytes",
    argument: "<bytes>",
  }),
  option("artifact-max-bytes", "text", "larger results are refused (default 64MiB)", {
    setting: "limits.artifactMaxBytes",
    argument: "<bytes>",
  }),
  option("ttl", "text", "artifact lifetime, e.g. 30m or 24h (default 24h)", {
    setting: "limits.ttlMs",
    argument: "<duration>",
  }),
  option("namespace", "text", "descriptor URIs artifact://<namespace>/<id>", {
    setting: "namespace",
    argument: "<name>",
  }),
  option("resource-links", "boolean", "add a resource_link to bounded results (default on)", {
    setting: "resourceLinks",
  }),
  option("hooks", "text", "module exporting per-tool hooks", { argument: "<module>" }),
  option("max-sessions", "integer", "HTTP: most concurrent sessions (default 64)", {
    argument: "<n>",
  }),
  option("idle-timeout", "duration", "HTTP: close a session idle this long (default 30m)", {
    argument: "<duration>",
  }),
  option("stateless", "boolean", "HTTP: one shared upstream, no sessions (needs --auth-tokens)"),
  option("auth-tokens", "text", 'HTTP: JSON file {"<token>": "<principal>"}', {
    argument: "<file>",
  }),
  option("allowed-origin", "list", "HTTP: a browser Origin to accept (repeatable)", {
    argument: "<origin>",
    env: "BOUNDED_MCP_ALLOWED_ORIGINS",
  }),
  option("allowed-host", "list", "HTTP: another Host header to accept (repeatable)", {
    argument: "<host>",
    env: "BOUNDED_MCP_ALLOWED_HOSTS",
  }),
  option("max-body-bytes", "text", "HTTP: largest request body (default 4MiB)", {
    argument: "<bytes>",
  }),
  option("log-level", "text", "debug, info (default), warn, error or silent", {
    argument: "<level>",
  }),
];

/** The option of a flag name (without dashes), if any. */
export function findOption(flag: string): OptionSpec | undefined {
  return OPTIONS.find((spec) => spec.flag === flag);
}
