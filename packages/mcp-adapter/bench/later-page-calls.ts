// npx tsx bench/later-page-calls.ts (build the adapter first)
// What one later page costs through the query tool of the real adapter: an SDK Client and Server
// over InMemoryTransport (this package's dist), the filtered + projected view of this package's
// warm query (generate-payload.ts: 2 filters, 3 fields) over its generated payload, every page
// fetched by
// nextCursor; per call the handler parses the arguments (parseQueryRequest), checks the id and
// scope, opens the parsed artifact and runs runQueryAsync, and the SDK carries the result. CPU
// time of the process (client and server together) per later call, medians over the rounds,
// each round paging the whole view with a fresh view cache's worth of cursors.
// BENCH_CALLS_MIB=10 (default), BENCH_CALLS_ROUNDS=5.
import { median } from "@bounded-mcp/bench-utils";
import { createMemoryStore } from "@bounded-mcp/stores";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createBoundedMcp } from "../dist/index.js";
import { filteredPageRequest, generatePayloadText } from "./generate-payload.js";

const SIZE_MIB = Number(process.env["BENCH_CALLS_MIB"] ?? "10");
const ROUNDS = Number(process.env["BENCH_CALLS_ROUNDS"] ?? "5");
const { text } = generatePayloadText(SIZE_MIB * 1024 * 1024);
const bounded = createBoundedMcp({
  keys: `bench:${"cd".repeat(32)}`,
  environment: {},
  artifactStore: createMemoryStore({ maxBytes: 1024 * 1024 * 1024 }),
  artifactMaxBytes: 1024 * 1024 * 1024,
});
const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
bounded.attach(server);
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "nodes", inputSchema: { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () =>
  bounded.boundResult({ content: [{ type: "text", text }] }),
);
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
const client = new Client({ name: "bench", version: "1.0.0" });
await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
// biome-ignore lint/suspicious/noExplicitAny: the bench reads envelope members.
const body = (result: unknown) => (result as CallToolResult).structuredContent as any;
const bound = body(await client.callTool({ name: "nodes", arguments: {} }));
const request = filteredPageRequest(bound.responseMeta.artifact.id as string);
const call = (argumentsValue: Record<string, unknown>) =>
  client.callTool({ name: "query_response_artifact", arguments: argumentsValue });
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const perCall: number[] = [];
let pages = 0;
for (let round = -1; round < ROUNDS; round += 1) {
  let next = body(await call(request)).responseMeta.nextCursor as string | null;
  let count = 0;
  const start = cpu();
  while (next !== null) {
    const page = body(await call({ ...request, cursor: next }));
    if (page.responseMeta === undefined) throw new Error(JSON.stringify(page).slice(0, 300));
    next = page.responseMeta.nextCursor;
    count += 1;
  }
  if (round >= 0) perCall.push(((cpu() - start) * 1000) / count);
  pages = count;
}
process.stdout.write(
  `later page through the adapter's query tool (${SIZE_MIB} MiB generated payload, ${pages} later pages a round, ${ROUNDS} rounds; Node ${process.version}): median ${median(perCall).toFixed(1)} µs CPU a call (${Math.min(...perCall).toFixed(1)} – ${Math.max(...perCall).toFixed(1)})\n`,
);
await client.close();
await bounded.dispose();
