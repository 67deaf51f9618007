import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { resolveN8nMcpEntry } from "n8n-mcp-bounded";

const require = createRequire(import.meta.url);

function packageFile(name: string, file: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), file);
}

/** The built bins the benchmark runs (build first: `pnpm build`). */
export const PATHS = Object.freeze({
  n8nMcpBounded: packageFile("n8n-mcp-bounded", "dist/cli.js"),
  proxy: packageFile("bounded-mcp-proxy", "dist/cli.js"),
  n8nMcp: resolveN8nMcpEntry(),
  serverFilesystem: packageFile("@modelcontextprotocol/server-filesystem", "dist/index.js"),
});

/** A fixed key ring, so both apps start without the random-key warning. */
const KEYS = `bench:${"ab".repeat(32)}`;

function environment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    N8N_MCP_TELEMETRY_DISABLED: "true",
    BOUNDED_MCP_KEYS: KEYS,
    N8N_MCP_BOUNDED_LOG_LEVEL: "error",
  };
}

/** A real SDK client over stdio to `node <args>`, named as Claude Code names itself. */
export async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: "claude-code", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: environment(),
      stderr: "ignore",
    }),
  );
  return client;
}

/** The four servers of the benchmark: each upstream direct, and behind its bounded app. */
export interface Servers {
  n8nDirect: Client;
  n8nBounded: Client;
  filesDirect: Client;
  filesBounded: Client;
  close(): Promise<void>;
}

/** Starts n8n-mcp (direct and through n8n-mcp-bounded) and server-filesystem (direct and proxied). */
export async function startServers(filesDir: string): Promise<Servers> {
  const [n8nDirect, n8nBounded, filesDirect, filesBounded] = await Promise.all([
    connect([PATHS.n8nMcp]),
    connect([PATHS.n8nMcpBounded]),
    connect([PATHS.serverFilesystem, filesDir]),
    connect([PATHS.proxy, "--", process.execPath, PATHS.serverFilesystem, filesDir]),
  ]);
  return {
    n8nDirect,
    n8nBounded,
    filesDirect,
    filesBounded,
    async close() {
      await Promise.all([n8nDirect, n8nBounded, filesDirect, filesBounded].map((c) => c.close()));
    },
  };
}
