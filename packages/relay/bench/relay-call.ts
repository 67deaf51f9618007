// Benchmark: a small tool call (echo) over stdio, made by a real SDK Client over the SDK's
// StdioClientTransport, sequentially, against the same upstream child (an SDK McpServer):
// - direct: the client spawns the upstream itself (one hop);
// - pipe floor: through a bare pipe relay (bench/fixtures/pipe-relay.mjs: lines copied both ways,
//   nothing parsed), the two-hop floor every ratio is taken against;
// - JSON floor: through a relay that parses each line, maps request ids to its own and
//   re-serializes (bench/fixtures/json-relay.mjs): the floor of a hand-written JSON-RPC path;
// - SDK floor: through a process made of an SDK Server and an SDK Client over the SDK's stdio
//   transports, forwarding every request unchecked (bench/fixtures/sdk-floor-relay.mjs): the floor
//   of any relay built from the SDK's Protocol;
// - proxy: through the built proxy CLI (apps/proxy/dist/cli.js), the whole product.
// Systems are interleaved per round (each round runs CALLS_PER_ROUND calls on each, the order
// rotated); medians and p99 of the per-call times, ratios to the pipe floor of the same run.
// Run from packages/relay after `pnpm build`: npx tsx bench/relay-call.ts [rounds] [calls]
// [--compare=<another proxy cli.js>]
// --cpu-prof writes a CPU profile of each relay process to $TMPDIR/relay-call-profiles/<name>/ (read one
// with bench/profile-summary.ts).
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { createBoundedRelay } from "../src/create-bounded-relay.js";
import { createLinearStdioClientTransport } from "../src/linear-stdio-client-transport.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const UPSTREAM = [here("../src/test-support/fixture-server.mjs")];
const PIPE_RELAY = here("./fixtures/pipe-relay.mjs");
const SDK_FLOOR_RELAY = here("./fixtures/sdk-floor-relay.mjs");
const JSON_RELAY = here("./fixtures/json-relay.mjs");
const PROXY_CLI = here("../../../apps/proxy/dist/cli.js");
const PROFILE_DIR = join(tmpdir(), "relay-call-profiles");

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const ROUNDS = Number(positional[0] ?? 20);
const CALLS_PER_ROUND = Number(positional[1] ?? 100);
const PROFILE = process.argv.includes("--cpu-prof");

/** Node flags writing a CPU profile of a relay process to $TMPDIR/relay-call-profiles/<name>/ with --cpu-prof. */
function profiled(name: string): string[] {
  return PROFILE
    ? ["--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${PROFILE_DIR}/${name}`]
    : [];
}

interface System {
  label: string;
  args: string[];
}

const SYSTEMS: System[] = [
  { label: "direct (one hop)", args: UPSTREAM },
  {
    label: "pipe floor: bare line relay (baseline)",
    args: [...profiled("pipe"), PIPE_RELAY, process.execPath, ...UPSTREAM],
  },
  {
    label: "JSON floor: parse + re-serialize each line",
    args: [...profiled("json"), JSON_RELAY, process.execPath, ...UPSTREAM],
  },
  {
    label: "SDK floor: SDK Server -> SDK Client",
    args: [...profiled("sdk"), SDK_FLOOR_RELAY, process.execPath, ...UPSTREAM],
  },
  {
    label: "proxy CLI (apps/proxy/dist/cli.js)",
    args: [...profiled("proxy"), PROXY_CLI, "--", process.execPath, ...UPSTREAM],
  },
];
// --compare=<cli.js> adds a row for another build of the proxy CLI (e.g. main's), same upstream.
const COMPARE = process.argv
  .find((arg) => arg.startsWith("--compare="))
  ?.slice("--compare=".length);
if (COMPARE !== undefined) {
  SYSTEMS.push({
    label: `proxy CLI, compared build (${COMPARE})`,
    args: [COMPARE, "--", process.execPath, ...UPSTREAM],
  });
}
const BASELINE = 1;

interface Connected {
  client: Client;
  /** The process the client talks to (the relay, or the upstream itself for direct). */
  pid: number;
}

async function connect(system: System): Promise<Connected> {
  const client = new Client({ name: "relay-call-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: system.args,
    stderr: "inherit",
  });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process `pid` has used so far, in µs (Linux /proc). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

async function timeCalls(client: Client, samples: number[] | undefined): Promise<void> {
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const start = performance.now();
    const result = await client.callTool({ name: "echo", arguments: { text: `call ${call}` } });
    const elapsed = performance.now() - start;
    if ((result.content as { text?: string }[])[0]?.text !== `call ${call}`) {
      throw new Error(`unexpected echo result: ${JSON.stringify(result)}`);
    }
    samples?.push(elapsed);
  }
}

function row(
  label: string,
  samples: number[],
  cpu: number,
  baseline: ReturnType<typeof summarize>,
) {
  const summary = summarize(samples);
  return {
    path: label,
    calls: summary.runs,
    "CPU/call": formatMs(cpu / 1000 / summary.runs),
    median: formatMs(summary.median),
    p99: formatMs(summary.p99),
    ratio: `${(summary.median / baseline.median).toFixed(2)}x`,
    "p99 ratio": `${(summary.p99 / baseline.p99).toFixed(2)}x`,
  };
}

/**
 * The second table: the relay in this process behind an in-memory pair, so the difference
 * between rows is the relay's own work per call (CPU/call: this whole process, the client's work
 * included, which every row shares). Baseline: the client straight over the linear stdio
 * transport to the upstream.
 */
async function inProcess(): Promise<void> {
  const linear = () =>
    createLinearStdioClientTransport({ command: process.execPath, args: UPSTREAM });
  const direct = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await direct.connect(linear());
  const upstream = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await upstream.connect(linear());
  const forwarder = new Server(
    { name: "sdk-floor", version: "1.0.0" },
    { capabilities: upstream.getServerCapabilities() ?? {} },
  );
  const anyResult = z.custom<Record<string, unknown>>((value) => typeof value === "object");
  forwarder.fallbackRequestHandler = (request) =>
    upstream.request({ method: request.method, params: request.params } as never, anyResult);
  const [floorClientSide, floorServerSide] = InMemoryTransport.createLinkedPair();
  await forwarder.connect(floorServerSide);
  const floor = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await floor.connect(floorClientSide);
  const bounded = createBoundedMcp({ environment: {} });
  const relay = createBoundedRelay({
    bounded,
    upstream: { kind: "stdio", command: process.execPath, args: UPSTREAM },
  });
  const [relayClientSide, relayServerSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(relayServerSide);
  const relayed = new Client({ name: "relay-call-bench", version: "1.0.0" });
  await relayed.connect(relayClientSide);
  await session.ready;
  const rows = [
    { label: "direct over the linear stdio transport (baseline)", client: direct },
    { label: "SDK floor in process: bare Server -> Client forwarder", client: floor },
    { label: "createBoundedRelay in process", client: relayed },
  ];
  const samples = rows.map((): number[] => []);
  const cpu = rows.map(() => 0);
  for (const { client } of rows) await timeCalls(client, undefined);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let turn = 0; turn < rows.length; turn += 1) {
      const index = (round + turn) % rows.length;
      const before = process.cpuUsage();
      await timeCalls(rows[index]!.client, samples[index]!);
      const used = process.cpuUsage(before);
      cpu[index]! += used.user + used.system;
    }
  }
  await Promise.all([direct.close(), floor.close(), upstream.close(), relay.close()]);
  await bounded.dispose();
  const baseline = summarize(samples[0]!);
  printTable(
    `in process: the same call behind an in-memory pair, ${ROUNDS} x ${CALLS_PER_ROUND} per row, interleaved (CPU/call: this process)`,
    rows.map((entry, index) => row(entry.label, samples[index]!, cpu[index]!, baseline)),
  );
}

async function main(): Promise<void> {
  if (process.argv.includes("--in-process-only")) return inProcess();
  const connected = await Promise.all(SYSTEMS.map(connect));
  const samples = SYSTEMS.map((): number[] => []);
  const cpu = SYSTEMS.map(() => 0);
  for (const { client } of connected) await timeCalls(client, undefined);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let turn = 0; turn < connected.length; turn += 1) {
      const index = (round + turn) % connected.length;
      const { client, pid } = connected[index]!;
      const before = cpuMicros(pid);
      await timeCalls(client, samples[index]!);
      cpu[index]! += cpuMicros(pid) - before;
    }
  }
  await Promise.all(connected.map(({ client }) => client.close()));
  const baseline = summarize(samples[BASELINE]!);
  printTable(
    `small tool call (echo) over stdio, ${ROUNDS} x ${CALLS_PER_ROUND} per system, interleaved (CPU/call: of the process the client talks to; clock ticks of 10 ms, summed per round)`,
    SYSTEMS.map((system, index) => row(system.label, samples[index]!, cpu[index]!, baseline)),
  );
  writeRelayCallPart(
    samples[0]!,
    SYSTEMS.slice(1).map((system, index): [string, number[]] => [
      system.label,
      samples[index + 1]!,
    ]),
  );
  if (!process.argv.includes("--stdio-only")) await inProcess();
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
  const [label, values] = paths.find(([name]) => name.startsWith("proxy CLI (apps/")) ??
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
