import type { CallToolRequest, CallToolResult, DownstreamExtra } from "./sdk/types.js";

/** What a tool hook receives for one relayed tools/call. */
export interface ToolHookContext {
  toolName: string;
  /**
   * The downstream request as received (also what `getRawCallToolRequest()` returns, parsed).
   * An argument a double does not hold (`12345678901234567891`, `-0`, `1e400`) is query-core's
   * ExactNumber here when the request came through serveStdio or the proxy's HTTP body (so it
   * is forwarded as written: SPEC.md §10); `JSON.stringify` of it gives the double.
   */
  request: CallToolRequest;
  /** The upstream result as sent, before any override and before bounding. Treat as read-only. */
  result: CallToolResult;
  /** The downstream request's handler context: signal, session id, auth info. */
  extra: DownstreamExtra;
}

/**
 * Runs on every relayed tools/call result of one tool (not on task-augmented calls, not on the
 * query tool). It may override the result with `setRawCallToolResult({ content?,
 * structuredContent?, _meta? })`; the override is applied before bounding, so an oversized
 * override is bounded like any result, and `isError` always stays the upstream's. A hook that
 * throws is logged and its override discarded: the caller gets the upstream result.
 */
export type ToolHook = (context: ToolHookContext) => void | Promise<void>;

/** Hooks by tool name. */
export type ToolHooks = Readonly<Record<string, ToolHook>>;

/**
 * The shape of a hooks module (what `bounded-mcp-proxy --hooks <module>` loads):
 * `export default { tools: { read_text_file: (context) => { ... } } }`.
 */
export interface RelayHooksModule {
  tools: ToolHooks;
}

/** Identity helper that types a hooks module: `export default defineRelayHooks({ tools: {...} })`. */
export function defineRelayHooks(hooks: RelayHooksModule): RelayHooksModule {
  return hooks;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The tool hooks of a loaded hooks module (the namespace object `import()` returns): its default
 * export `{ tools: { name: function } }`, or a named export `tools`. Throws a TypeError naming
 * `source` and the offending key when the shape is wrong, so a typo fails at start-up.
 */
export function toolHooksFromModule(loaded: unknown, source: string): ToolHooks {
  const namespace = isObject(loaded) ? loaded : {};
  const candidate = isObject(namespace.default) ? namespace.default : namespace;
  const tools = candidate.tools;
  if (!isObject(tools)) {
    throw new TypeError(
      `hooks module ${source} must export default { tools: { <tool name>: (context) => void } }`,
    );
  }
  for (const [name, hook] of Object.entries(tools)) {
    if (typeof hook !== "function") {
      throw new TypeError(`hooks module ${source}: tools["${name}"] is not a function`);
    }
  }
  return tools as ToolHooks;
}
