// HTTP load benchmark of bounded-mcp-proxy (build first: it spawns dist/cli.js). Run:
//   pnpm --filter bounded-mcp-proxy bench:http [--mib 50] [--clients 50] [--seconds 60]
//     [--warmup 10] [--rounds 3] [--variants base,--max-semi-space-size=64]
// Each round, interleaved (the order of the variants rotates per round):
// 1. The engine alone: the same adapter in this process (createBoundedMcp, openSession,
//    runToolCall, no transport), one query at a time for `seconds / 4`, cycling the same
//    filtered queries: its rate is the baseline.
// 2. Per variant (node flags of the proxy process; `base` is none): the built proxy on streamable
//    HTTP (127.0.0.1, port 0, one bearer token) in front of load-upstream.mjs; one client makes
//    the large call, then `clients` SDK clients loop over the same filtered queries of that
//    artifact for `warmup` s (not counted) and `seconds` s (counted): req/s, p50, p99, max, and
//    the proxy's RSS (VmRSS) after the warm-up and at the end, its peak (VmHWM), and the CPU
//    time per request of the proxy process and of this one (the clients) beside the engine's CPU
//    per query: on a shared machine req/s follows the load, CPU per request much less.
// Prints one table per round and the medians (with min-max) over the rounds, and `uptime`.

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { printTable } from "@bounded-mcp/bench-utils";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { createBoundedMcp, type SessionExtra } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadDocumentText, loadQueries } from "./load-document.mjs";

const PROXY_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const UPSTREAM = fileURLToPath(new URL("./load-upstream.mjs", import.meta.url));
const TOKEN = "http-load-bench-token";

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1]!;
}
const MEBIBYTES = Number(option("mib", "50"));
const CLIENTS = Number(option("clients", "50"));
const SECONDS = Number(option("seconds", "60"));
const WARMUP = Number(option("warmup", "10"));
const ROUNDS = Number(option("rounds", "3"));
const VARIANTS = option("variants", "base").split(",");

interface Sample {
  reqPerSec: number;
  /** The proxy process's CPU time per counted request (all its threads), ms. */
  proxyCpuMs: number;
  /** This process's (the clients') CPU time per counted request, ms. */
  clientCpuMs: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  warmRssMiB: number;
  endRssMiB: number;
  peakRssMiB: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function memory(pid: number): { rssMiB: number; hwmMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const read = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rssMiB: read("VmRSS"), hwmMiB: read("VmHWM") };
}

/** CPU time (user + system) a process used so far, in ms (Linux /proc/<pid>/stat, 100 Hz ticks). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const rowsText = loadDocumentText(MEBIBYTES);

/** The engine alone: the adapter in this process, queries one at a time. */
async function engineRate(seconds: number): Promise<{ rate: number; cpuMsPerQuery: number }> {
  const bounded = await createBoundedMcp({ environment: {}, principals: "many" });
  try {
    const session = bounded.openSession({ listTools: async () => [] });
    const extra = {
      signal: new AbortController().signal,
      sessionId: "engine",
      requestId: 1,
      authInfo: { token: TOKEN, clientId: "bench", scopes: [] },
      sendNotification: async () => {},
      sendRequest: async () => ({}),
    } as unknown as SessionExtra;
    const big = await session.runToolCall(
      { method: "tools/call", params: { name: "big", arguments: {} } },
      extra,
      async () => ({ content: [{ type: "text", text: rowsText }] }) as CallToolResult,
    );
    const artifactId = (big.structuredContent as { responseMeta: { artifact: { id: string } } })
      .responseMeta.artifact.id;
    const queries = loadQueries(artifactId);
    const call = (index: number) =>
      session.runToolCall(
        {
          method: "tools/call",
          params: { name: QUERY_TOOL_NAME, arguments: queries[index % queries.length] },
        },
        extra,
        async () => {
          throw new Error("not an upstream tool");
        },
      );
    // The first query of each view pays the parse and the view; not counted, as for the proxy.
    for (let index = 0; index < queries.length; index += 1) await call(index);
    let done = 0;
    const start = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() - start < seconds * 1_000) {
      const result = await call(done);
      if (result.isError) throw new Error(JSON.stringify(result.structuredContent));
      done += 1;
    }
    const used = process.cpuUsage(cpu);
    return {
      rate: done / ((performance.now() - start) / 1_000),
      cpuMsPerQuery: (used.user + used.system) / 1_000 / done,
    };
  } finally {
    await bounded.dispose();
  }
}

async function startProxy(
  flags: string[],
  tokensFile: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      ...flags,
      PROXY_CLI,
      "--listen",
      "http://127.0.0.1:0/mcp",
      "--auth-tokens",
      tokensFile,
      "--store",
      "memory",
      "--max-sessions",
      String(CLIENTS * 2 + 8),
      "--max-sessions-per-principal",
      String(CLIENTS + 4),
      "--log-level",
      "warn",
      "--",
      process.execPath,
      UPSTREAM,
      String(MEBIBYTES),
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BOUNDED_MCP_LOG_LEVEL: "warn" } },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`proxy exited (${code}): ${stderr}`)));
  });
  return { url, child };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "http-load-bench", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return client;
}

async function proxyRun(flags: string[], dir: string): Promise<Sample> {
  const tokensFile = join(dir, "tokens.json");
  writeFileSync(tokensFile, JSON.stringify({ [TOKEN]: "bench" }));
  const proxy = await startProxy(flags, tokensFile);
  const pid = proxy.child.pid!;
  const clients: Client[] = [];
  try {
    for (let index = 0; index < CLIENTS; index += 1) clients.push(await connect(proxy.url));
    const big = await clients[0]!.callTool({ name: "big", arguments: {} });
    const artifactId = (big.structuredContent as { responseMeta: { artifact: { id: string } } })
      .responseMeta.artifact.id;
    const queries = loadQueries(artifactId);
    const latencies: number[] = [];
    let errors = 0;
    const errorSamples: string[] = [];
    let counting = false;
    const warmEnd = performance.now() + WARMUP * 1_000;
    const end = warmEnd + SECONDS * 1_000;
    let warm = { rssMiB: Number.NaN, hwmMiB: Number.NaN };
    let proxyCpuStart = 0;
    let clientCpuStart = process.cpuUsage();
    const warmTimer = setTimeout(() => {
      warm = memory(pid);
      proxyCpuStart = cpuMs(pid);
      clientCpuStart = process.cpuUsage();
      counting = true;
    }, WARMUP * 1_000);
    await Promise.all(
      clients.map(async (client, index) => {
        let next = index;
        while (performance.now() < end) {
          const query = queries[next % queries.length]!;
          next += 1;
          const start = performance.now();
          try {
            const result = await client.callTool({ name: QUERY_TOOL_NAME, arguments: query });
            if (result.isError) {
              errors += 1;
              if (errorSamples.length < 3)
                errorSamples.push(JSON.stringify(result.structuredContent).slice(0, 300));
            }
          } catch (error) {
            errors += 1;
            if (errorSamples.length < 3)
              errorSamples.push(`${error} ${(error as Error).cause ?? ""}`.slice(0, 300));
          }
          const finished = performance.now();
          if (counting && finished <= end) latencies.push(finished - start);
        }
      }),
    );
    clearTimeout(warmTimer);
    const last = memory(pid);
    const proxyCpu = cpuMs(pid) - proxyCpuStart;
    const clientCpu = process.cpuUsage(clientCpuStart);
    if (errorSamples.length > 0)
      process.stderr.write(`errors, e.g.:\n${errorSamples.join("\n")}\n`);
    latencies.sort((a, b) => a - b);
    return {
      reqPerSec: latencies.length / SECONDS,
      proxyCpuMs: proxyCpu / latencies.length,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1_000 / latencies.length,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? Number.NaN,
      errors,
      warmRssMiB: warm.rssMiB,
      endRssMiB: last.rssMiB,
      peakRssMiB: last.hwmMiB,
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    proxy.child.kill("SIGTERM");
    await new Promise((resolve) => proxy.child.once("exit", resolve));
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-http-load-"));
const engine: number[] = [];
const engineCpu: number[] = [];
const byVariant = new Map<string, Sample[]>(VARIANTS.map((name) => [name, []]));
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const alone = await engineRate(SECONDS / 4);
    engine.push(alone.rate);
    engineCpu.push(alone.cpuMsPerQuery);
    const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length]!);
    const rows = [];
    for (const variant of order) {
      const sample = await proxyRun(variant === "base" ? [] : variant.split("+"), dir);
      byVariant.get(variant)!.push(sample);
      rows.push({ variant, ...sample, ratio: sample.reqPerSec / engine[round]! });
    }
    printTable(
      `round ${round + 1}: engine alone ${fixed(engine[round]!)} req/s, ${fixed(engineCpu[round]!, 3)} ms CPU per query`,
      rows.map((row) => ({
        variant: row.variant,
        "req/s": fixed(row.reqPerSec),
        "vs engine": `${fixed(row.ratio, 2)}x`,
        "proxy CPU ms/req": fixed(row.proxyCpuMs, 3),
        "vs engine CPU": `${fixed(row.proxyCpuMs / engineCpu[round]!, 1)}x`,
        "clients CPU ms/req": fixed(row.clientCpuMs, 3),
        "p50 ms": fixed(row.p50),
        "p99 ms": fixed(row.p99),
        "max ms": fixed(row.max),
        errors: row.errors,
        "RSS warm MiB": fixed(row.warmRssMiB),
        "RSS end MiB": fixed(row.endRssMiB),
        "end / warm": `${fixed(row.endRssMiB / row.warmRssMiB, 2)}x`,
        "peak MiB": fixed(row.peakRssMiB),
      })),
    );
  }
  const spread = (values: number[], digits = 1) =>
    `${fixed(median(values), digits)} (${fixed(Math.min(...values), digits)}-${fixed(Math.max(...values), digits)})`;
  printTable(
    `median (min-max) of ${ROUNDS} rounds: ${CLIENTS} clients, ${SECONDS} s after ${WARMUP} s warm-up, ${MEBIBYTES} MiB artifact; engine alone ${spread(engine)} req/s, ${spread(engineCpu, 3)} ms CPU per query`,
    [...byVariant].map(([variant, samples]) => ({
      variant,
      "req/s": spread(samples.map((s) => s.reqPerSec)),
      "vs engine": spread(
        samples.map((s, round) => s.reqPerSec / engine[round]!),
        2,
      ),
      "proxy CPU ms/req": spread(
        samples.map((s) => s.proxyCpuMs),
        3,
      ),
      "vs engine CPU": spread(samples.map((s, round) => s.proxyCpuMs / engineCpu[round]!)),
      "p50 ms": spread(samples.map((s) => s.p50)),
      "p99 ms": spread(samples.map((s) => s.p99)),
      "max ms": spread(samples.map((s) => s.max)),
      errors: samples.reduce((sum, s) => sum + s.errors, 0),
      "RSS warm MiB": spread(samples.map((s) => s.warmRssMiB)),
      "RSS end MiB": spread(samples.map((s) => s.endRssMiB)),
      "end / warm": spread(
        samples.map((s) => s.endRssMiB / s.warmRssMiB),
        2,
      ),
      "peak MiB": spread(samples.map((s) => s.peakRssMiB)),
    })),
  );
  process.stdout.write(`uptime: ${execFileSync("uptime", { encoding: "utf8" })}`);
  writeHttpPart(byVariant.get("base") ?? []);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * BENCHMARKS.md (tooling/bench-report): the base variant's rate against the engine alone, its
 * p99 and its RSS after the counted seconds against after the warm-up, as the part proxy.http.
 */
function writeHttpPart(samples: Sample[]) {
  const engineRate = results.figureOf("engine alone (req/s)", engine, { unit: "req/s" });
  const rate = results.figureOf(
    `proxy, ${CLIENTS} HTTP clients (req/s)`,
    samples.map((sample) => sample.reqPerSec),
    { unit: "req/s", baseline: engineRate, lowerIsBetter: false },
  );
  const p99 = results.figureOf(
    "proxy p99 latency",
    samples.map((sample) => sample.p99),
  );
  const steady = results.figureOf(
    "proxy RSS at the end ÷ after warm-up (one artifact)",
    samples.map((sample) => sample.endRssMiB / sample.warmRssMiB),
    { unit: "x" },
  );
  results.writeBenchResult("proxy", "http", {
    title: `HTTP load: ${CLIENTS} clients, ${SECONDS} s after ${WARMUP} s warm-up, filtered queries of one ${MEBIBYTES} MiB artifact (${ROUNDS} rounds)`,
    figures: [engineRate, rate, p99, steady],
    targets: [
      results.targetOf(
        "http-rate",
        `HTTP filtered queries at ${CLIENTS} clients ≥ 0.9x the engine's rate`,
        rate.ratio ?? Number.NaN,
        ">=",
        0.9,
        "x",
        rate.name,
      ),
      results.targetOf(
        "http-p99",
        `HTTP filtered queries at ${CLIENTS} clients: p99 ≤ 100 ms`,
        p99.median,
        "<=",
        100,
        "ms",
        p99.name,
      ),
    ],
    notes: [
      "The engine alone answers the same queries one at a time in this process, without a transport; on a shared machine req/s and p99 follow the load, CPU per request (the bench's own table) much less.",
      "The steady-RSS target is judged by the soak (proxy.soak: a mixed load that also fills the store and caches); this one-artifact figure is listed beside it.",
    ],
  });
}
