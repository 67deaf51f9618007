// Benchmark: a small tool call through the relay (downstream client -> in-memory pair -> relay
// server -> upstream client -> linear stdio transport -> child) against the same call made
// directly (client -> linear stdio transport -> child), interleaved in rounds in the same run.
// The relay is the one the apps use (createBoundedRelay: the adapter session, hooks, measuring,
// outputSchema policy). A second path is the floor any SDK-based relay pays: a bare SDK Server
// whose fallback handler forwards through an SDK Client with no options (no timeout policy,
// progress, cancellation or relay logic at all).
// Run from packages/relay: npx tsx bench/relay-call.ts
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { createBoundedRelay } from "../src/create-bounded-relay.js";
import { createLinearStdioClientTransport } from "../src/linear-stdio-client-transport.js";

const FIXTURE = fileURLToPath(new URL("../src/test-support/fixture-server.mjs", import.meta.url));
const ROUNDS = 10;
const CALLS_PER_ROUND = 100;

function fixtureTransport() {
  return createLinearStdioClientTransport({ command: process.execPath, args: [FIXTURE] });
}

async function connectDirect(): Promise<Client> {
  const client = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await client.connect(fixtureTransport());
  return client;
}

async function connectSdkFloor(): Promise<{ client: Client; close: () => Promise<void> }> {
  const upstream = await connectDirect();
  const server = new Server(
    { name: "sdk-floor", version: "1.0.0" },
    { capabilities: upstream.getServerCapabilities() ?? {} },
  );
  const anyResult = z.custom<Record<string, unknown>>((value) => typeof value === "object");
  server.fallbackRequestHandler = (request) =>
    upstream.request({ method: request.method, params: request.params } as never, anyResult);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await upstream.close();
    },
  };
}

async function connectBounded(): Promise<{ client: Client; close: () => Promise<void> }> {
  const bounded = createBoundedMcp({ environment: {} });
  const relay = createBoundedRelay({
    bounded,
    upstream: { kind: "stdio", command: process.execPath, args: [FIXTURE] },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(serverSide);
  const client = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await client.connect(clientSide);
  await session.ready;
  return {
    client,
    close: async () => {
      await relay.close();
      await bounded.dispose();
    },
  };
}

async function timeCalls(client: Client, samples: number[]): Promise<void> {
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const start = performance.now();
    await client.callTool({ name: "echo", arguments: { text: `call ${call}` } });
    samples.push(performance.now() - start);
  }
}

function row(path: string, samples: number[], baseline: ReturnType<typeof summarize>) {
  const summary = summarize(samples);
  return {
    path,
    calls: summary.runs,
    median: formatMs(summary.median),
    p99: formatMs(summary.p99),
    ratio: `${(summary.median / baseline.median).toFixed(2)}x`,
    "p99 ratio": `${(summary.p99 / baseline.p99).toFixed(2)}x`,
  };
}

async function main(): Promise<void> {
  const direct = await connectDirect();
  const paths = [
    { label: "SDK floor: bare Server -> Client forwarder", ...(await connectSdkFloor()) },
    { label: "through createBoundedRelay", ...(await connectBounded()) },
  ];
  const directSamples: number[] = [];
  const samples = paths.map((): number[] => []);
  await timeCalls(direct, []);
  for (const path of paths) await timeCalls(path.client, []);
  for (let round = 0; round < ROUNDS; round += 1) {
    await timeCalls(direct, directSamples);
    for (const [index, path] of paths.entries()) await timeCalls(path.client, samples[index]!);
  }
  await direct.close();
  for (const path of paths) await path.close();
  const baseline = summarize(directSamples);
  printTable(`relay: a small tool call (echo), ${ROUNDS} x ${CALLS_PER_ROUND} interleaved`, [
    row("direct (baseline)", directSamples, baseline),
    ...paths.map((path, index) => row(path.label, samples[index]!, baseline)),
  ]);
  writeRelayCallPart(
    directSamples,
    paths.map((path, index) => [path.label, samples[index]!]),
  );
}

await main();

/**
 * BENCHMARKS.md (tooling/bench-report): medians against the direct call, and the small-call
 * target: the createBoundedRelay path against the floor (a path named "pipe", else the first).
 */
function writeRelayCallPart(direct: number[], paths: [string, number[]][]) {
  const baseline = results.figureOf("direct call (baseline)", direct);
  const figures = [
    baseline,
    ...paths.map(([label, values]) => results.figureOf(label, values, { baseline })),
  ];
  const [floorLabel, floorSamples] = paths.find(([name]) => /pipe/i.test(name)) ??
    paths[0] ?? ["", []];
  const [label, values] = paths.find(([name]) => name.includes("createBoundedRelay")) ??
    paths.at(-1) ?? ["", []];
  const floor = results.figureOf(floorLabel, floorSamples);
  const relay = results.figureOf(`${label} ÷ ${floorLabel}`, values, { baseline: floor });
  results.writeBenchResult("relay", "call", {
    title: `A small tool call (echo), ${ROUNDS} x ${CALLS_PER_ROUND} interleaved`,
    figures: [...figures, relay],
    targets: [
      results.targetOf(
        "small-stdio-call",
        `small stdio call (${label}) ≤ 1.3x the floor (${floorLabel})`,
        relay.ratio ?? Number.NaN,
        "<=",
        1.3,
        "x",
        relay.name,
      ),
    ],
    notes: ["p99 of each path: see the bench's own table."],
  });
}
