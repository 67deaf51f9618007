// The public surface of bounded-mcp-proxy: the CLI is the product; these names let a program
// embed the same proxy (named exports only).

export { formatHelp } from "./options/help.js";
export {
  type ListenOptions,
  type LoadedOptions,
  type LogLevel,
  loadOptions,
  type ProxyOptions,
  type UpstreamOptions,
} from "./options/load-options.js";
export { PROXY_SETTINGS, PROXY_TABLE } from "./options/proxy-settings.js";
export { UsageError } from "./options/usage-error.js";
export { createProxyLogger, type ProxyLogger } from "./runtime/create-proxy-logger.js";
export { type RunningProxy, type RunProxyDependencies, runProxy } from "./runtime/run-proxy.js";
