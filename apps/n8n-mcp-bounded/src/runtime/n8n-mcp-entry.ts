import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** Where the pinned n8n-mcp package is installed (its root directory). */
function n8nMcpRoot(): string {
  // The package's main entry is dist/index.js; resolving it does not load it.
  return join(dirname(require.resolve("n8n-mcp")), "..");
}

/**
 * The script `npx n8n-mcp` runs (its bin, `dist/mcp/stdio-wrapper.js`), resolved from this
 * package's own pinned dependency, so the child is the exact n8n-mcp this package was tested with.
 */
export function resolveN8nMcpEntry(): string {
  return join(n8nMcpRoot(), "dist", "mcp", "stdio-wrapper.js");
}

/** The version of the installed n8n-mcp (from its package.json). */
export function readN8nMcpVersion(): string {
  const manifest = JSON.parse(readFileSync(join(n8nMcpRoot(), "package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}
