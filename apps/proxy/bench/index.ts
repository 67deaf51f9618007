// Benchmark of bounded-mcp-proxy (build first: it spawns dist/cli.js). Run: pnpm --filter
// bounded-mcp-proxy bench [MiB]
// 1. A small call (server-everything's echo) made directly and through the proxy, over stdio and
//    over streamable HTTP (server-everything's own HTTP mode is the HTTP baseline), interleaved in
//    rounds: median and p99 as ratios to the direct call of the same transport.
// 2. One large result (default 50 MiB of JSON) through the proxy (stdio upstream, stdio
//    downstream; the client receives the bounded envelope) against JSON.parse of the same text in
//    this process, and the proxy's peak RSS (VmHWM, Linux) as a multiple of the payload.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { formatBytes, formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const PROXY_CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const BIG_SERVER = fileURLToPath(new URL("./big-result-server.mjs", import.meta.url));
const EVERYTHING = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const ROUNDS = 10;
const CALLS_PER_ROUND = 50;
const BIG_RUNS = 3;
const MEBIBYTES = Number(process.argv[2] ?? "50");
const QUIET = { ...process.env, BOUNDED_MCP_LOG_LEVEL: "error" } as Record<string, string>;

function stdioClient(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: "proxy-bench", version: "1.0.0" });
  return client
    .connect(new StdioClientTransport({ command, args, env: QUIET, stderr: "ignore" }))
    .then(() => client);
}

async function startHttpProxy(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [PROXY_CLI, "--listen", "http://127.0.0.1:0/mcp", "--", process.execPath, EVERYTHING, "stdio"],
    { env: QUIET, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /listening on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
  });
  return { url, child };
}

/** server-everything itself over streamable HTTP on a free port: the HTTP baseline. */
async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { ...QUIET, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve) => {
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (stderr.includes(`listening on port ${port}`)) resolve();
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: "proxy-bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function timeCalls(client: Client, samples: number[]): Promise<void> {
  for (let call = 0; call < CALLS_PER_ROUND; call += 1) {
    const start = performance.now();
    await client.callTool({ name: "echo", arguments: { message: `call ${call}` } });
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
    "median ratio": `${(summary.median / baseline.median).toFixed(2)}x`,
    "p99 ratio": `${(summary.p99 / baseline.p99).toFixed(2)}x`,
  };
}

async function smallCalls(): Promise<void> {
  const direct = await stdioClient(process.execPath, [EVERYTHING, "stdio"]);
  const viaStdio = await stdioClient(process.execPath, [
    PROXY_CLI,
    "--",
    process.execPath,
    EVERYTHING,
    "stdio",
  ]);
  const http = await startHttpProxy();
  const viaHttp = await httpClient(http.url);
  const everythingHttp = await startEverythingHttp();
  const directHttp = await httpClient(everythingHttp.url);
  const samples = {
    direct: [] as number[],
    stdio: [] as number[],
    directHttp: [] as number[],
    http: [] as number[],
  };
  const clients = [direct, viaStdio, directHttp, viaHttp];
  for (const client of clients) await timeCalls(client, []);
  for (let round = 0; round < ROUNDS; round += 1) {
    await timeCalls(direct, samples.direct);
    await timeCalls(viaStdio, samples.stdio);
    await timeCalls(directHttp, samples.directHttp);
    await timeCalls(viaHttp, samples.http);
  }
  await Promise.all(clients.map((client) => client.close()));
  http.child.kill("SIGTERM");
  everythingHttp.child.kill("SIGTERM");
  const stdioBaseline = summarize(samples.direct);
  const httpBaseline = summarize(samples.directHttp);
  printTable(`small call (echo), ${ROUNDS} rounds x ${CALLS_PER_ROUND} calls, interleaved`, [
    row("direct over stdio (stdio baseline)", samples.direct, stdioBaseline),
    row("through the proxy, stdio", samples.stdio, stdioBaseline),
    row("direct over streamable HTTP (HTTP baseline)", samples.directHttp, httpBaseline),
    row("through the proxy, streamable HTTP", samples.http, httpBaseline),
    row("through the proxy, HTTP vs direct stdio", samples.http, stdioBaseline),
  ]);
  part.small = samples;
}

/** Peak resident set size of a process (VmHWM), in bytes; Linux only. */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

async function bigResult(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PROXY_CLI, "--", process.execPath, BIG_SERVER, String(MEBIBYTES)],
    env: QUIET,
    stderr: "ignore",
  });
  const client = new Client({ name: "proxy-bench", version: "1.0.0" });
  await client.connect(transport);
  const proxyPid = transport.pid!;
  const rssAfterStart = peakRss(proxyPid);
  const proxySamples: number[] = [];
  let payloadBytes = 0;
  let receivedBytes = 0;
  for (let run = 0; run < BIG_RUNS; run += 1) {
    const start = performance.now();
    const result = await client.callTool({ name: "big" });
    proxySamples.push(performance.now() - start);
    const envelope = result.structuredContent as {
      responseMeta: { artifact: { byteLength: number } };
    };
    payloadBytes = envelope.responseMeta.artifact.byteLength;
    receivedBytes = Buffer.byteLength(JSON.stringify(result));
  }
  const proxyPeak = peakRss(proxyPid);
  await client.close();

  const rows: string[] = [];
  let length = 0;
  for (let index = 0; length < MEBIBYTES * 1024 * 1024; index += 1) {
    const text = `{"id":${index},"name":"item-${index}","tags":["a","b"],"note":"${"n".repeat(200)}"}`;
    rows.push(text);
    length += text.length + 1;
  }
  const text = `{"rows":[${rows.join(",")}]}`;
  const parseSamples: number[] = [];
  for (let run = 0; run < BIG_RUNS; run += 1) {
    const start = performance.now();
    JSON.parse(text);
    parseSamples.push(performance.now() - start);
  }
  const parse = summarize(parseSamples);
  const proxy = summarize(proxySamples);
  printTable(`one ${MEBIBYTES} MiB JSON result, median of ${BIG_RUNS}`, [
    { path: "JSON.parse of the text (baseline)", median: formatMs(parse.median), ratio: "1.00x" },
    {
      path: "through the proxy (stdio -> bounded envelope)",
      median: formatMs(proxy.median),
      ratio: `${(proxy.median / parse.median).toFixed(2)}x`,
    },
  ]);
  printTable("proxy memory", [
    {
      payload: formatBytes(payloadBytes),
      "client received": formatBytes(receivedBytes),
      "proxy RSS after start": formatBytes(rssAfterStart),
      "proxy peak RSS": formatBytes(proxyPeak),
      "peak / payload": `${(proxyPeak / payloadBytes).toFixed(2)}x`,
    },
  ]);
  part.big = { parseSamples, proxySamples, proxyPeak, payloadBytes, rssAfterStart };
}

/** What the run measured, for BENCHMARKS.md (written after both parts ran). */
const part: {
  small?: Record<"direct" | "stdio" | "directHttp" | "http", number[]>;
  big?: {
    parseSamples: number[];
    proxySamples: number[];
    proxyPeak: number;
    payloadBytes: number;
    rssAfterStart: number;
  };
} = {};

await smallCalls();
await bigResult();
writeProxyPart();

/** BENCHMARKS.md (tooling/bench-report): the figures above and the proxy targets as one part. */
function writeProxyPart() {
  const figures: results.BenchFigure[] = [];
  const targets: results.BenchTarget[] = [];
  if (part.small !== undefined) {
    const stdio = results.figureOf("small call, direct over stdio (baseline)", part.small.direct);
    const http = results.figureOf(
      "small call, server-everything over HTTP (baseline)",
      part.small.directHttp,
    );
    figures.push(
      stdio,
      results.figureOf("small call through the proxy, stdio", part.small.stdio, {
        baseline: stdio,
      }),
      http,
      results.figureOf("small call through the proxy, streamable HTTP", part.small.http, {
        baseline: http,
      }),
    );
  }
  if (part.big !== undefined) {
    const parse = results.figureOf(
      `JSON.parse of the ${MEBIBYTES} MiB text, in the bench process (baseline)`,
      part.big.parseSamples,
    );
    const proxy = results.figureOf(
      `${MEBIBYTES} MiB result through the proxy, end to end`,
      part.big.proxySamples,
      { baseline: parse },
    );
    const peak = results.medianFigure("proxy peak RSS (VmHWM over the calls)", part.big.proxyPeak, {
      unit: "B",
      baseline: { name: "payload bytes", median: part.big.payloadBytes },
    });
    figures.push(
      parse,
      proxy,
      peak,
      results.medianFigure("proxy RSS after start", part.big.rssAfterStart, { unit: "B" }),
    );
  }
  results.writeBenchResult("proxy", "bench", {
    title: `bounded-mcp-proxy: small calls (${ROUNDS} x ${CALLS_PER_ROUND} interleaved) and one ${MEBIBYTES} MiB result (${BIG_RUNS} runs)`,
    figures,
    targets,
    notes: [
      "JSON.parse here runs in the bench process, not in a process holding only the text; the peak RSS is the proxy's VmHWM over all the calls of the run. The end-to-end and one-call peak targets are judged by proxy.big-call (a fresh proxy per call, JSON.parse in a child holding only the text).",
    ],
  });
}
