// Benchmark of n8n-mcp-bounded (build first: it spawns dist/cli.js). Run:
//   pnpm --filter n8n-mcp-bounded bench
// Real calls to the pinned n8n-mcp, made directly (n8n-mcp's own stdio bin) and through the
// n8n-mcp-bounded bin, both over stdio with the same client name; the management tools go to the
// test stand-in of the n8n public API (generated workflows and executions).
// 1. Sizes: the text n8n-mcp sends, the text block the model gets through n8n-mcp-bounded (the
//    bounded envelope, or the same text when it is small), and the whole bounded result.
// 2. Time: each call's median over interleaved rounds, through the bin as a ratio to direct.
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { formatBytes, formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { resolveN8nMcpEntry } from "../src/runtime/n8n-mcp-entry.js";
import { TEST_KEYS } from "../test/support/connect-bounded.js";
import { STAND_IN_API_KEY, startN8nApiStandIn } from "../test/support/n8n-api-stand-in.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "10");

const CALLS: { label: string; name: string; arguments: Record<string, unknown> }[] = [
  {
    label: "get_node notion (full)",
    name: "get_node",
    arguments: { nodeType: "n8n-nodes-base.notion", detail: "full" },
  },
  {
    label: "get_node slack (full)",
    name: "get_node",
    arguments: { nodeType: "n8n-nodes-base.slack", detail: "full" },
  },
  {
    label: "search_templates by_nodes httpRequest, limit 100",
    name: "search_templates",
    arguments: { searchMode: "by_nodes", nodeTypes: ["n8n-nodes-base.httpRequest"], limit: 100 },
  },
  {
    label: "get_node httpRequest (standard)",
    name: "get_node",
    arguments: { nodeType: "n8n-nodes-base.httpRequest", detail: "standard" },
  },
  { label: "tools_documentation", name: "tools_documentation", arguments: {} },
  {
    label: "n8n_get_workflow, 320 nodes (stand-in)",
    name: "n8n_get_workflow",
    arguments: { id: "big" },
  },
  {
    label: "n8n_executions list, 100 (stand-in)",
    name: "n8n_executions",
    arguments: { action: "list" },
  },
  {
    label: "n8n_get_workflow, 450 heavy nodes: cut by n8n-mcp (stand-in)",
    name: "n8n_get_workflow",
    arguments: { id: "huge" },
  },
];

async function connect(args: string[], environment: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "claude-code", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: environment,
      stderr: "ignore",
    }),
  );
  return client;
}

function firstText(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === "text" ? first.text : "";
}

async function timed(client: Client, call: (typeof CALLS)[number]) {
  const start = performance.now();
  const result = (await client.callTool({
    name: call.name,
    arguments: call.arguments,
  })) as CallToolResult;
  return { ms: performance.now() - start, result };
}

const api = await startN8nApiStandIn();
const environment = {
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  N8N_API_URL: api.url,
  N8N_API_KEY: STAND_IN_API_KEY,
  WEBHOOK_SECURITY_MODE: "moderate",
  N8N_MCP_TELEMETRY_DISABLED: "true",
  BOUNDED_MCP_KEYS: TEST_KEYS,
  N8N_MCP_BOUNDED_LOG_LEVEL: "error",
};
const [direct, bounded] = await Promise.all([
  connect([resolveN8nMcpEntry()], environment),
  connect([CLI], environment),
]);

const sizes: Record<string, unknown>[] = [];
const times: Record<string, unknown>[] = [];
const figures: results.BenchFigure[] = [];
for (const call of CALLS) {
  const directMs: number[] = [];
  const boundedMs: number[] = [];
  let raw = "";
  let received: CallToolResult | undefined;
  for (let round = 0; round <= ROUNDS; round++) {
    const first = await timed(direct, call);
    const second = await timed(bounded, call);
    if (round === 0) {
      raw = firstText(first.result);
      received = second.result;
      continue; // warm-up
    }
    directMs.push(first.ms);
    boundedMs.push(second.ms);
  }
  const text = received === undefined ? "" : firstText(received);
  const rawBytes = Buffer.byteLength(raw);
  const textBytes = Buffer.byteLength(text);
  sizes.push({
    call: call.label,
    "n8n-mcp text": formatBytes(rawBytes),
    "text the model gets": formatBytes(textBytes),
    "whole bounded result": formatBytes(Buffer.byteLength(JSON.stringify(received))),
    bounded: text === raw ? "no (identical)" : "yes",
    "text ratio": `${((textBytes / rawBytes) * 100).toFixed(1)}%`,
  });
  const directFigure = results.figureOf(`${call.label}: n8n-mcp direct (baseline)`, directMs);
  figures.push(
    directFigure,
    results.figureOf(`${call.label}: through n8n-mcp-bounded`, boundedMs, {
      baseline: directFigure,
    }),
  );
  figures.push(
    results.medianFigure(`${call.label}: text the model gets`, textBytes, {
      unit: "B",
      baseline: { name: "n8n-mcp text bytes", median: rawBytes },
    }),
  );
  const directSummary = summarize(directMs);
  const boundedSummary = summarize(boundedMs);
  times.push({
    call: call.label,
    "direct median": formatMs(directSummary.median),
    "bounded median": formatMs(boundedSummary.median),
    ratio: `${(boundedSummary.median / directSummary.median).toFixed(2)}x`,
  });
}
printTable("Sizes: n8n-mcp 2.87.0 direct vs through n8n-mcp-bounded (default limits)", sizes);
printTable(`Time per call, median of ${ROUNDS} interleaved rounds`, times);
results.writeBenchResult("context", "n8n-mcp-bounded", {
  title: `n8n-mcp 2.87.0 direct vs through n8n-mcp-bounded: time per call (${ROUNDS} interleaved rounds) and text size`,
  figures,
});
await Promise.all([direct.close(), bounded.close()]);
await api.close();
