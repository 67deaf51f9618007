// The public surface of bounded-mcp-proxy: the CLI is the product; these names let a program
// embed the same proxy as README.md's "Programmatic use" shows (named exports only;
// src/surface.test.ts pins them). The settings table, help text and option parts stay internal.

export { type LoadedOptions, loadOptions, type ProxyOptions } from "./options/load-options.js";
export { UsageError } from "./options/usage-error.js";
export { createProxyLogger, type ProxyLogger } from "./runtime/create-proxy-logger.js";
export { type RunningProxy, type RunProxyDependencies, runProxy } from "./runtime/run-proxy.js";
