// Benchmark: a small tool call through the relay (downstream client -> in-memory pair -> relay
// server -> upstream client -> linear stdio transport -> child) against the same call made
// directly (client -> linear stdio transport -> child), interleaved in rounds in the same run.
// Two relays: the bare one (connectRelay, no adapter) and the one the apps use
// (createBoundedRelay: adapter attached, hooks, measuring, outputSchema policy).
// Run from packages/mcp-adapter: npx tsx bench/relay-call.ts
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { connectRelay } from "../src/relay/connect-relay.js";
import { createBoundedRelay } from "../src/relay/create-bounded-relay.js";
import { createLinearStdioClientTransport } from "../src/relay/linear-stdio-client-transport.js";
import { createBoundedMcp } from "../src/server/create-bounded-mcp.js";

const FIXTURE = fileURLToPath(
  new URL("../src/relay/test-support/fixture-server.mjs", import.meta.url),
);
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

async function connectRelayed(): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await connectRelay(serverSide, {
    connectUpstream: async ({ clientInfo, capabilities }) => {
      const upstream = new Client(clientInfo, { capabilities });
      await upstream.connect(fixtureTransport());
      return upstream;
    },
  });
  const client = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await client.connect(clientSide);
  await connection.ready;
  return { client, close: () => connection.close() };
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

async function main(): Promise<void> {
  const direct = await connectDirect();
  const relayed = await connectRelayed();
  const boundedRelay = await connectBounded();
  const directSamples: number[] = [];
  const relayedSamples: number[] = [];
  const boundedSamples: number[] = [];
  await timeCalls(direct, []);
  await timeCalls(relayed.client, []);
  await timeCalls(boundedRelay.client, []);
  for (let round = 0; round < ROUNDS; round += 1) {
    await timeCalls(direct, directSamples);
    await timeCalls(relayed.client, relayedSamples);
    await timeCalls(boundedRelay.client, boundedSamples);
  }
  await direct.close();
  await relayed.close();
  await boundedRelay.close();
  const baseline = summarize(directSamples);
  const through = summarize(relayedSamples);
  const throughBounded = summarize(boundedSamples);
  printTable(`relay: a small tool call (echo), ${ROUNDS} x ${CALLS_PER_ROUND} interleaved`, [
    {
      path: "direct (baseline)",
      calls: baseline.runs,
      median: formatMs(baseline.median),
      p99: formatMs(baseline.p99),
      ratio: "1.00x",
      "p99 ratio": "1.00x",
    },
    {
      path: "through the relay",
      calls: through.runs,
      median: formatMs(through.median),
      p99: formatMs(through.p99),
      ratio: `${(through.median / baseline.median).toFixed(2)}x`,
      "p99 ratio": `${(through.p99 / baseline.p99).toFixed(2)}x`,
    },
    {
      path: "through createBoundedRelay",
      calls: throughBounded.runs,
      median: formatMs(throughBounded.median),
      p99: formatMs(throughBounded.p99),
      ratio: `${(throughBounded.median / baseline.median).toFixed(2)}x`,
      "p99 ratio": `${(throughBounded.p99 / baseline.p99).toFixed(2)}x`,
    },
  ]);
}

await main();
