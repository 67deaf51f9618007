import {
  ADAPTER_SETTINGS,
  defineSetting,
  type ParsedValue,
  SETTING_KINDS,
  SETTING_RELATIONS,
} from "@bounded-mcp/mcp-adapter/settings";

/** How much the proxy logs to stderr (pino levels; `silent` logs nothing). */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const satisfies LogLevel[];

/** Where downstream clients connect: stdio (one client) or an HTTP endpoint. */
export type ListenOptions =
  | { kind: "stdio" }
  | { kind: "http"; host: string; port: number; path: string };

const LISTEN_EXPECTED = "stdio or http://<host>:<port>/<path> (port 0 picks a free one)";

function parseListen(text: string): ParsedValue<ListenOptions> {
  const trimmed = text.trim();
  if (trimmed === "stdio") return { ok: true, value: { kind: "stdio" } };
  const url = URL.canParse(trimmed) ? new URL(trimmed) : null;
  if (url === null || url.protocol !== "http:" || url.port === "" || url.search || url.hash) {
    return { ok: false, expected: LISTEN_EXPECTED };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { ok: true, value: { kind: "http", host, port: Number(url.port), path: url.pathname } };
}

function isListen(value: unknown): value is ListenOptions {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === "stdio" || kind === "http";
}

function showListen(listen: ListenOptions): string {
  return listen.kind === "stdio" ? "stdio" : `http://${listen.host}:${listen.port}${listen.path}`;
}

function parseHeader(text: string): ParsedValue<[string, string]> {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(text);
  return match === null
    ? { ok: false, expected: '"Name: value"' }
    : { ok: true, value: [match[1] as string, match[2] as string] };
}

function parseOrigin(text: string): ParsedValue<string> {
  const origin = URL.canParse(text) ? new URL(text).origin : "null";
  return origin === "null"
    ? { ok: false, expected: "an origin such as https://app.example.com" }
    : { ok: true, value: origin };
}

function parseHost(text: string): ParsedValue<string> {
  return /^[A-Za-z0-9.\-[\]:]+$/.test(text)
    ? { ok: true, value: text.toLowerCase() }
    : { ok: false, expected: "a host such as mcp.example.com or mcp.example.com:8080" };
}

const { byteSize, duration, count, boolean, text, oneOf, url, list, nullable, parsed } =
  SETTING_KINDS;

/**
 * The proxy's own settings, rows of the same shape as the adapter's (`ADAPTER_SETTINGS`): each is
 * a flag, a `BOUNDED_MCP_*` variable and a config-file key. `--config <file>` (the file layer
 * itself) and the upstream command after `--` are the only options that are no row.
 */
export const PROXY_SETTINGS = Object.freeze({
  upstreamUrl: defineSetting({
    flag: "upstream-url",
    env: "BOUNDED_MCP_UPSTREAM_URL",
    value: nullable(url()),
    default: null,
    defaultText: "none: the command after --",
    help: "upstream MCP server over streamable HTTP",
  }),
  upstreamHeader: defineSetting({
    flag: "upstream-header",
    env: "BOUNDED_MCP_UPSTREAM_HEADERS",
    value: list(parseHeader, {
      argument: "<header>",
      separator: /\r?\n/,
      // A config file may give the headers as an object: {"Authorization": "Bearer ..."}.
      fromObject: (headers) =>
        Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`),
    }),
    default: [],
    help: 'header sent upstream, "Name: value" (newline-separated in the variable)',
  }),
  listen: defineSetting({
    flag: "listen",
    env: "BOUNDED_MCP_LISTEN",
    value: parsed(parseListen, { argument: "<where>", show: showListen, accepts: isListen }),
    default: { kind: "stdio" },
    help: "stdio, or http://<host>:<port>/<path> (port 0 picks a free one)",
  }),
  hooks: defineSetting({
    flag: "hooks",
    env: "BOUNDED_MCP_HOOKS",
    value: nullable(text({ argument: "<module>" })),
    default: null,
    help: "ES module exporting per-tool hooks",
  }),
  maxSessions: defineSetting({
    flag: "max-sessions",
    env: "BOUNDED_MCP_MAX_SESSIONS",
    value: count({ min: 1 }),
    default: 64,
    help: "HTTP: most concurrent sessions (503 beyond)",
  }),
  maxSessionsPerPrincipal: defineSetting({
    flag: "max-sessions-per-principal",
    env: "BOUNDED_MCP_MAX_SESSIONS_PER_PRINCIPAL",
    value: nullable(count({ min: 1 })),
    default: null,
    defaultText: "max(1, maxSessions / 4)",
    help: "HTTP: most concurrent sessions of one --auth-tokens principal (429 beyond)",
  }),
  heapGrowingPercent: defineSetting({
    flag: "heap-growing-percent",
    env: "BOUNDED_MCP_HEAP_GROWING_PERCENT",
    value: count({ min: 0 }),
    default: 20,
    help: "V8 heap growth allowed between full collections, in percent (0: V8's own)",
  }),
  idleTimeout: defineSetting({
    flag: "idle-timeout",
    env: "BOUNDED_MCP_IDLE_TIMEOUT",
    value: duration({ min: 1 }),
    default: 30 * 60_000,
    help: "HTTP: close a session idle this long",
  }),
  stateless: defineSetting({
    flag: "stateless",
    env: "BOUNDED_MCP_STATELESS",
    value: boolean(),
    default: false,
    help: "HTTP: one shared upstream, no sessions",
    relations: [
      SETTING_RELATIONS.needs(
        "stateless",
        { text: "", holds: (value) => value === true },
        "authTokens",
        "without sessions the caller scope comes from the token",
      ),
      SETTING_RELATIONS.custom({
        rule: "stateless needs an http listen",
        settings: ["stateless", "listen"],
        check: ({ values }) =>
          values.stateless === true && (values.listen as ListenOptions).kind === "stdio"
            ? {
                setting: "stateless",
                problem: (name) =>
                  `applies to an http ${name("listen")} only: stdio serves one client`,
              }
            : undefined,
      }),
    ],
  }),
  authTokens: defineSetting({
    flag: "auth-tokens",
    env: "BOUNDED_MCP_AUTH_TOKENS",
    value: nullable(text({ argument: "<file>" })),
    default: null,
    help: 'HTTP: JSON file {"<token>": "<principal>"}; the principal is the caller scope',
  }),
  allowedOrigin: defineSetting({
    flag: "allowed-origin",
    env: "BOUNDED_MCP_ALLOWED_ORIGINS",
    value: list(parseOrigin, { argument: "<origin>" }),
    default: [],
    help: "HTTP: a browser Origin to accept",
  }),
  allowedHost: defineSetting({
    flag: "allowed-host",
    env: "BOUNDED_MCP_ALLOWED_HOSTS",
    value: list(parseHost, { argument: "<host>" }),
    default: [],
    help: "HTTP: another Host header to accept",
  }),
  maxBodyBytes: defineSetting({
    flag: "max-body-bytes",
    env: "BOUNDED_MCP_MAX_BODY_BYTES",
    value: byteSize({ min: 1 }),
    default: 4 * 1024 * 1024,
    help: "HTTP: largest request body (413 beyond)",
  }),
  headersTimeout: defineSetting({
    flag: "headers-timeout",
    env: "BOUNDED_MCP_HEADERS_TIMEOUT",
    value: duration({ min: 1 }),
    default: 10_000,
    help: "HTTP: longest wait for a request's headers (408 and close beyond)",
  }),
  bodyTimeout: defineSetting({
    flag: "body-timeout",
    env: "BOUNDED_MCP_BODY_TIMEOUT",
    value: duration({ min: 1 }),
    default: 5_000,
    help: "HTTP: longest wait for a request body once its headers came (408 and close)",
  }),
  logLevel: defineSetting({
    flag: "log-level",
    env: "BOUNDED_MCP_LOG_LEVEL",
    value: oneOf(LOG_LEVELS, "<level>"),
    default: "info",
    help: "debug, info, warn, error or silent (JSON lines on stderr)",
  }),
});

/**
 * Every setting of bounded-mcp-proxy: the adapter's rows (the store's default as this program
 * applies it), then the proxy's own.
 */
export const PROXY_TABLE = Object.freeze({
  ...ADAPTER_SETTINGS,
  store: {
    ...ADAPTER_SETTINGS.store,
    defaultText: "stdio: fs in the user's cache folder; http: memory",
  },
  ...PROXY_SETTINGS,
});
