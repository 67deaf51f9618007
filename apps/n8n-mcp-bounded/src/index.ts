// The public surface of n8n-mcp-bounded: what README.md's "Programmatic use" needs, named exports
// only (src/surface.test.ts pins it). The bin is dist/cli.js; the preview functions, option
// readers and runtime parts behind these names stay internal.

export {
  createN8nPreviewHook,
  type N8nPreviewHookOptions,
} from "./previews/n8n-preview-hook.js";
export {
  createN8nMcpBounded,
  type N8nMcpBounded,
  type N8nMcpBoundedOptions,
} from "./runtime/create-n8n-mcp-bounded.js";
export {
  createStderrLogger,
  type LogLevel,
  type StderrLogger,
} from "./runtime/create-stderr-logger.js";
// Which n8n-mcp this app runs and where its entry is: for tools that start the same n8n-mcp
// beside it (the repository's context benchmark compares the two).
export { readN8nMcpVersion, resolveN8nMcpEntry } from "./runtime/n8n-mcp-entry.js";
