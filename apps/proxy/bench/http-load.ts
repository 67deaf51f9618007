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
// 3. The floor (system `floor`): floor-server.mjs, a bare node:http server in its own process
//    answering the same engine call (read the body, JSON.parse, runToolCall, JSON.stringify),
//    driven by `clients` plain node:http clients (keep-alive, one connection each); and the
//    proxy driven by the same plain clients (system `raw`: initialize, then tools/call bodies
//    with the session id and protocol version headers, answers read as JSON or SSE). The SDK
//    clients (system `sdk`, the target's figure) cost more CPU per request than either server,
//    and on a 2-core machine they share the cores with it: raw vs floor is the proxy's own cost.
// Prints one table per round and the medians (with min-max) over the rounds, and `uptime`.
// `--systems sdk,raw,floor` picks what runs (default all three).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
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
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { loadDocumentText, loadQueries } from "./load-document.mjs";

const PROXY_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const UPSTREAM = fileURLToPath(new URL("./load-upstream.mjs", import.meta.url));
const FLOOR = fileURLToPath(new URL("./floor-server.mjs", import.meta.url));
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
const SYSTEMS = option("systems", "sdk,raw,floor").split(",");
/** `--before <cli.js>`: also run the SDK clients against another build (e.g. main's), same round. */
const BEFORE_CLI = option("before", "");

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

/** Spawns a server that prints `listening on <url> [<artifactId>]` on stderr. */
async function startServer(
  args: string[],
): Promise<{ url: string; artifactId: string | undefined; child: ChildProcess }> {
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, BOUNDED_MCP_LOG_LEVEL: "warn" },
  });
  let stderr = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
      const found = /listening on (\S+)(?: (\S+))?\n/.exec(stderr);
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`server exited (${code}): ${stderr}`)));
  });
  return { url: match[1]!, artifactId: match[2], child };
}

function startProxy(flags: string[], tokensFile: string, cli = PROXY_CLI) {
  return startServer([
    ...flags,
    cli,
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
  ]);
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

/** One POST over a keep-alive agent; the answer's status, headers and text. */
function post(
  agent: Agent,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        agent,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The JSON-RPC answer of a POST to the proxy: its JSON body, or the SSE event with an id. */
function answerOf(reply: { headers: IncomingHttpHeaders; text: string }): {
  result?: CallToolResult;
  error?: unknown;
} {
  if (!(reply.headers["content-type"] ?? "").startsWith("text/event-stream")) {
    return JSON.parse(reply.text);
  }
  for (const line of reply.text.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const message = JSON.parse(line.slice(6));
    if (message.id !== undefined) return message;
  }
  throw new Error(`no answer in the SSE stream: ${reply.text.slice(0, 200)}`);
}

/** One load client: makes a query call, says whether the answer was an error. */
interface Caller {
  call(query: unknown): Promise<boolean>;
  close(): Promise<void>;
}

function sdkCaller(client: Client): Caller {
  return {
    call: async (query) =>
      (
        await client.callTool({
          name: QUERY_TOOL_NAME,
          arguments: query as Record<string, unknown>,
        })
      ).isError === true,
    close: () => client.close(),
  };
}

/** A plain node:http client of the proxy: initialize, then tools/call bodies of its own. */
async function rawProxyCaller(url: string): Promise<Caller> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${TOKEN}`,
  };
  const opened = await post(
    agent,
    target,
    headers,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "http-load-bench-raw", version: "1.0.0" },
      },
    }),
  );
  const sessionId = opened.headers["mcp-session-id"];
  if (opened.status !== 200 || typeof sessionId !== "string") {
    throw new Error(`initialize answered ${opened.status}: ${opened.text.slice(0, 200)}`);
  }
  headers["mcp-session-id"] = sessionId;
  headers["mcp-protocol-version"] = LATEST_PROTOCOL_VERSION;
  await post(agent, target, headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  let id = 0;
  return {
    async call(query) {
      id += 1;
      const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${QUERY_TOOL_NAME}","arguments":${JSON.stringify(query)}}}`;
      const answer = answerOf(await post(agent, target, headers, body));
      if (answer.result === undefined) throw new Error(JSON.stringify(answer.error));
      return answer.result.isError === true;
    },
    async close() {
      agent.destroy();
    },
  };
}

/** A plain node:http client of the floor server: the query arguments as the body. */
function rawFloorCaller(url: string): Caller {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const headers = { "content-type": "application/json" };
  return {
    async call(query) {
      const reply = await post(agent, target, headers, JSON.stringify(query));
      return (JSON.parse(reply.text) as CallToolResult).isError === true;
    },
    async close() {
      agent.destroy();
    },
  };
}

type System = "sdk" | "raw" | "floor";

async function loadRun(
  system: System,
  flags: string[],
  dir: string,
  cli = PROXY_CLI,
): Promise<Sample> {
  const tokensFile = join(dir, "tokens.json");
  writeFileSync(tokensFile, JSON.stringify({ [TOKEN]: "bench" }));
  const server =
    system === "floor"
      ? await startServer([...flags, FLOOR, String(MEBIBYTES)])
      : await startProxy(flags, tokensFile, cli);
  const pid = server.child.pid!;
  const callers: Caller[] = [];
  try {
    let artifactId = server.artifactId;
    if (system === "floor") {
      for (let index = 0; index < CLIENTS; index += 1) callers.push(rawFloorCaller(server.url));
    } else {
      // The large call from an SDK client; the artifact is the principal's, so every session of
      // the same token may query it.
      const first = await connect(server.url);
      callers.push(sdkCaller(first));
      const big = await first.callTool({ name: "big", arguments: {} });
      artifactId = (big.structuredContent as { responseMeta: { artifact: { id: string } } })
        .responseMeta.artifact.id;
      if (system === "raw") {
        await first.close();
        callers.length = 0;
      }
      while (callers.length < CLIENTS) {
        callers.push(
          system === "sdk"
            ? sdkCaller(await connect(server.url))
            : await rawProxyCaller(server.url),
        );
      }
    }
    const queries = loadQueries(artifactId!);
    const latencies: number[] = [];
    let errors = 0;
    const errorSamples: string[] = [];
    let counting = false;
    const warmEnd = performance.now() + WARMUP * 1_000;
    const end = warmEnd + SECONDS * 1_000;
    let warm = { rssMiB: Number.NaN, hwmMiB: Number.NaN };
    let serverCpuStart = 0;
    let clientCpuStart = process.cpuUsage();
    const warmTimer = setTimeout(() => {
      warm = memory(pid);
      serverCpuStart = cpuMs(pid);
      clientCpuStart = process.cpuUsage();
      counting = true;
    }, WARMUP * 1_000);
    await Promise.all(
      callers.map(async (caller, index) => {
        let next = index;
        while (performance.now() < end) {
          const query = queries[next % queries.length]!;
          next += 1;
          const start = performance.now();
          try {
            if (await caller.call(query)) {
              errors += 1;
              if (errorSamples.length < 3) errorSamples.push(`an error result of ${system}`);
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
    const serverCpu = cpuMs(pid) - serverCpuStart;
    const clientCpu = process.cpuUsage(clientCpuStart);
    if (errorSamples.length > 0)
      process.stderr.write(`errors, e.g.:\n${errorSamples.join("\n")}\n`);
    latencies.sort((a, b) => a - b);
    return {
      reqPerSec: latencies.length / SECONDS,
      proxyCpuMs: serverCpu / latencies.length,
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
    await Promise.allSettled(callers.map((caller) => caller.close()));
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-http-load-"));
const engine: number[] = [];
const engineCpu: number[] = [];
/** What runs each round: the floor once, the proxy with each variant of node flags per client kind. */
const RUNS: { key: string; system: System; variant: string; cli?: string }[] = [
  ...SYSTEMS.flatMap((system) =>
    system === "floor"
      ? [{ key: "floor", system: "floor" as System, variant: "base" }]
      : VARIANTS.map((variant) => ({
          key: variant === "base" ? system : `${system} ${variant}`,
          system: system as System,
          variant,
        })),
  ),
  ...(BEFORE_CLI === ""
    ? []
    : [{ key: "sdk before", system: "sdk" as System, variant: "base", cli: BEFORE_CLI }]),
];
const byVariant = new Map<string, Sample[]>(RUNS.map((run) => [run.key, []]));
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const alone = await engineRate(SECONDS / 4);
    engine.push(alone.rate);
    engineCpu.push(alone.cpuMsPerQuery);
    const order = RUNS.map((_, index) => RUNS[(index + round) % RUNS.length]!);
    const rows = [];
    for (const run of order) {
      const flags = run.variant === "base" ? [] : run.variant.split("+");
      const sample = await loadRun(run.system, flags, dir, run.cli);
      byVariant.get(run.key)!.push(sample);
      rows.push({ variant: run.key, ...sample, ratio: sample.reqPerSec / engine[round]! });
    }
    printTable(
      `round ${round + 1}: engine alone ${fixed(engine[round]!)} req/s, ${fixed(engineCpu[round]!, 3)} ms CPU per query`,
      rows.map((row) => ({
        variant: row.variant,
        "req/s": fixed(row.reqPerSec),
        "vs engine": `${fixed(row.ratio, 2)}x`,
        "server CPU ms/req": fixed(row.proxyCpuMs, 3),
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
      "server CPU ms/req": spread(
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
  writeHttpPart(
    byVariant.get("sdk") ?? [],
    byVariant.get("raw") ?? [],
    byVariant.get("floor") ?? [],
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * BENCHMARKS.md (tooling/bench-report): the base variant's rate against the engine alone, its
 * p99 and its RSS after the counted seconds against after the warm-up, as the part proxy.http.
 */
function writeHttpPart(samples: Sample[], rawSamples: Sample[], floorSamples: Sample[]) {
  const engineRate = results.figureOf("engine alone (req/s)", engine, { unit: "req/s" });
  const rate = results.figureOf(
    `proxy, ${CLIENTS} HTTP clients (req/s)`,
    samples.map((sample) => sample.reqPerSec),
    { unit: "req/s", baseline: engineRate, lowerIsBetter: false },
  );
  const floorRate = results.figureOf(
    `floor: bare node:http server, ${CLIENTS} plain http clients (req/s)`,
    floorSamples.map((sample) => sample.reqPerSec),
    { unit: "req/s", baseline: engineRate, lowerIsBetter: false },
  );
  const rawRate = results.figureOf(
    `proxy, ${CLIENTS} plain http clients (req/s)`,
    rawSamples.map((sample) => sample.reqPerSec),
    { unit: "req/s", baseline: floorRate, lowerIsBetter: false },
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
    figures: [
      engineRate,
      rate,
      p99,
      ...(floorSamples.length > 0 ? [floorRate] : []),
      ...(rawSamples.length > 0 ? [rawRate] : []),
      steady,
    ],
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
      "The floor is a bare node:http server answering the same engine call (read the body, JSON.parse, runToolCall, JSON.stringify) to plain node:http clients; the proxy with the same plain clients is compared with it. The clients run in the bench process on the same cores as the server.",
      "The steady-RSS target is judged by the soak (proxy.soak: a mixed load that also fills the store and caches); this one-artifact figure is listed beside it.",
    ],
  });
}
