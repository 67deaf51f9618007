// Envelope sizes over a corpus of real results. Build first, then:
//   pnpm --filter @bounded-mcp/mcp-adapter bench:envelopes
//   ADAPTERS="before=<another checkout>/packages/mcp-adapter/dist/index.js,after=dist/index.js" ...
// The results come from the real servers, called directly over stdio: n8n-mcp (the pinned
// dependency of apps/n8n-mcp-bounded) for get_node and search_templates, and
// @modelcontextprotocol/server-filesystem reading JSON files (npm's mime-db, TypeScript's German
// diagnostic messages, a generated items result). Each result is then bounded in process by each
// adapter build named in ADAPTERS (`label=path/to/dist/index.js,...`; default: this package's
// dist), with the default limits and the memory store; the figures are the envelope's text block
// in bytes and in cl100k_base tokens, and their median over the corpus. Sizes are deterministic:
// one run is the measurement.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatBytes, median, printTable } from "@bounded-mcp/bench-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getEncoding } from "js-tiktoken";
import { generatePayloadText } from "./generate-payload.js";

const here = dirname(fileURLToPath(import.meta.url));
const appRequire = createRequire(join(here, "../../../apps/n8n-mcp-bounded/package.json"));
const N8N_MCP = join(dirname(appRequire.resolve("n8n-mcp")), "mcp", "stdio-wrapper.js");
/** server-filesystem, a dev dependency of the relay package (spawned by path, never imported). */
const FILESYSTEM = join(
  here,
  "../../relay/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);
const ROOT = join(here, "../../..");
const rootRequire = createRequire(join(ROOT, "package.json"));
/** npm's mime-db, a keyed object of about 2,500 like-shaped entries (found in pnpm's store). */
const MIME_DB = (() => {
  const store = join(ROOT, "node_modules/.pnpm");
  const folder = readdirSync(store)
    .filter((name) => name.startsWith("mime-db@"))
    .sort()
    .at(-1);
  return join(store, folder ?? "mime-db", "node_modules/mime-db/db.json");
})();
const encoding = getEncoding("cl100k_base");

interface Call {
  label: string;
  name: string;
  arguments: Record<string, unknown>;
}

const nodeCalls = ["notion", "slack", "github", "jira", "salesforce", "googleSheets"].map(
  (node) => ({
    label: `get_node ${node} full`,
    name: "get_node",
    arguments: { nodeType: `n8n-nodes-base.${node}`, detail: "full" },
  }),
);
const N8N_CALLS: Call[] = [
  ...nodeCalls,
  {
    label: "search_templates by_nodes httpRequest 100",
    name: "search_templates",
    arguments: { searchMode: "by_nodes", nodeTypes: ["n8n-nodes-base.httpRequest"], limit: 100 },
  },
  {
    label: "search_templates keyword slack 100",
    name: "search_templates",
    arguments: { query: "slack", limit: 100 },
  },
];

const FILES: { label: string; source: string | (() => string) }[] = [
  { label: "read_text_file mime-db db.json", source: MIME_DB },
  {
    label: "read_text_file typescript de diagnostics",
    source: join(
      dirname(rootRequire.resolve("typescript")),
      "de/diagnosticMessages.generated.json",
    ),
  },
  { label: "read_text_file items 40 KiB", source: () => generatePayloadText(40 * 1024).text },
  { label: "read_text_file items 1 MiB", source: () => generatePayloadText(1024 * 1024).text },
];

async function withClient<T>(
  args: string[],
  env: Record<string, string>,
  use: (client: Client) => Promise<T>,
) {
  const client = new Client({ name: "envelope-size-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args, env, stderr: "ignore" }),
  );
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function collect(): Promise<{ label: string; tool: string; result: CallToolResult }[]> {
  const environment = { PATH: process.env.PATH ?? "", MCP_MODE: "stdio", LOG_LEVEL: "error" };
  const n8n = await withClient([N8N_MCP], environment, async (client) => {
    const out = [];
    for (const call of N8N_CALLS) {
      const result = (await client.callTool(call)) as CallToolResult;
      out.push({ label: call.label, tool: call.name, result });
    }
    return out;
  });
  const directory = mkdtempSync(join(tmpdir(), "envelope-size-"));
  try {
    const paths = FILES.map((file, index) => {
      const path = join(directory, `file-${index}.json`);
      if (typeof file.source === "string") copyFileSync(file.source, path);
      else writeFileSync(path, file.source());
      return path;
    });
    const files = await withClient(
      [FILESYSTEM, directory],
      { PATH: process.env.PATH ?? "" },
      async (client) => {
        const out = [];
        for (const [index, path] of paths.entries()) {
          const result = (await client.callTool({
            name: "read_text_file",
            arguments: { path },
          })) as CallToolResult;
          out.push({ label: FILES[index]!.label, tool: "read_text_file", result });
        }
        return out;
      },
    );
    return [...n8n, ...files];
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

interface AdapterModule {
  createBoundedMcp(options: { environment: Record<string, string> }): {
    boundResult(result: CallToolResult, context: { toolName: string }): Promise<CallToolResult>;
    dispose(): Promise<void>;
  };
}

function adapters(): [string, string][] {
  const given = process.env.ADAPTERS;
  if (given === undefined) return [["this build", join(here, "../dist/index.js")]];
  return given.split(",").map((entry) => entry.split("=") as [string, string]);
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === "text" ? first.text : "";
}

const corpus = await collect();
if (process.env.DUMP_CORPUS !== undefined) {
  writeFileSync(process.env.DUMP_CORPUS, JSON.stringify(corpus));
}
const rows: Record<string, unknown>[] = corpus.map(({ label, result }) => ({
  result: label,
  "raw result (JSON)": formatBytes(Buffer.byteLength(JSON.stringify(result))),
}));
const medians: Record<string, unknown>[] = [];
for (const [name, path] of adapters()) {
  const module = (await import(pathToFileURL(path).href)) as AdapterModule;
  const mcp = module.createBoundedMcp({ environment: {} });
  const sizes: number[] = [];
  const tokenCounts: number[] = [];
  for (const [index, { tool, result }] of corpus.entries()) {
    const bounded = await mcp.boundResult(result, { toolName: tool });
    const text = textOf(bounded);
    const isEnvelope = bounded !== result;
    const bytes = Buffer.byteLength(text);
    if (isEnvelope) {
      sizes.push(bytes);
      tokenCounts.push(encoding.encode(text).length);
    }
    rows[index]![`${name} envelope`] = isEnvelope ? `${bytes} B` : "inline";
  }
  medians.push({
    adapter: name,
    envelopes: sizes.length,
    "median bytes": median(sizes),
    "median tokens": median(tokenCounts),
    "max bytes": Math.max(...sizes),
  });
  await mcp.dispose();
}
printTable("envelope text per result", rows);
printTable("median over the corpus", medians);
