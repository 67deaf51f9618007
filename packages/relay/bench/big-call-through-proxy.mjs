// One 50 MiB call through the built proxy (build apps/proxy first), a fresh proxy per run, so the
// peak (VmHWM) is one call's: peak RSS as a multiple of the payload, and the call's wall time as a
// multiple of JSON.parse of the same text timed in a separate child holding only that text, with
// `uptime` per run. The upstream is apps/proxy's bench/big-result-server.mjs (one text block).
// Two floors run interleaved with the proxy, each a fresh process in front of the same upstream
// (fixtures/big-call-floor.mjs): the bytes through a bare relay, and that relay parsing the line
// and the text (what any exact bounding relay must do), as multiples of the same JSON.parse.
// Run from the repository root: node packages/relay/bench/big-call-through-proxy.mjs [MiB] [runs]
// The proxy's CPU for the call (/proc/<pid>/stat, all its threads) is reported beside the wall time
// as a multiple of the child's JSON.parse CPU: on a shared machine wall time follows the load.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as results from "@bounded-mcp/bench-utils";

// PROXY_ROOT=<another checkout> runs that checkout's build instead (e.g. main's, for a before/after).
const WT =
  process.env.PROXY_ROOT ?? new URL("../../..", import.meta.url).pathname.replace(/\/$/, "");
const require = createRequire(`${WT}/apps/proxy/package.json`);
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(
  require.resolve("@modelcontextprotocol/sdk/client/stdio.js")
);
const MIB = Number(process.argv[2] ?? "50");
const RUNS = Number(process.argv[3] ?? "3");
const extra = (process.env.PROXY_NODE_ARGS ?? "").split(" ").filter(Boolean);
const row = (i) => `{"id":${i},"name":"item-${i}","tags":["a","b"],"note":"${"n".repeat(200)}"}`;
const rows = [];
let length = 0;
for (let i = 0; length < MIB * 1024 * 1024; i++) {
  const t = row(i);
  rows.push(t);
  length += t.length + 1;
}
const file = join(mkdtempSync(join(tmpdir(), "big-call-")), "payload.json");
writeFileSync(file, `{"rows":[${rows.join(",")}]}`);
rows.length = 0;
const hwm = (pid) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;
/** User + system CPU of a process so far, in ms (10 ms ticks; all its threads). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const CHILD = `const t=require("node:fs").readFileSync(process.argv[1],"utf8");gc();const c=process.cpuUsage();const s=performance.now();JSON.parse(t);const w=performance.now()-s;const u=process.cpuUsage(c);process.stdout.write(JSON.stringify([w,(u.user+u.system)/1000]));`;
const UPSTREAM = [process.execPath, `${WT}/apps/proxy/bench/big-result-server.mjs`, String(MIB)];
const FLOOR = new URL("fixtures/big-call-floor.mjs", import.meta.url).pathname;
/** What the client talks to: the proxy, or a floor relay (fixtures/big-call-floor.mjs). */
const SYSTEMS = {
  proxy: [...extra, `${WT}/apps/proxy/dist/cli.js`, "--", ...UPSTREAM],
  pipeFloor: [FLOOR, "pipe", "--", ...UPSTREAM],
  parseFloor: [FLOOR, "parse", "--", ...UPSTREAM],
};

/** One call through a fresh process of `system`: wall ms, its CPU ms, its RSS before and peak. */
async function callThrough(system) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: SYSTEMS[system],
    env: { ...process.env, BOUNDED_MCP_LOG_LEVEL: "error" },
    stderr: "ignore",
  });
  const client = new Client({ name: "b", version: "1" });
  await client.connect(transport);
  const pid = transport.pid;
  const start0 = hwm(pid);
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const result = await client.callTool({ name: "big" });
  const wall = performance.now() - t0;
  const cpu = cpuMs(pid) - cpu0;
  const peak = hwm(pid);
  await client.close();
  return { result, wall, cpu, start0, peak };
}

const out = [];
for (let run = 0; run < RUNS; run++) {
  const uptime = execFileSync("uptime", { encoding: "utf8" }).trim();
  // Systems interleaved, the order rotated per run.
  const order = ["proxy", "pipeFloor", "parseFloor"];
  for (let turn = 0; turn < run % order.length; turn++) order.push(order.shift());
  const measured = {};
  for (const system of order) measured[system] = await callThrough(system);
  const { result, wall, cpu, start0, peak } = measured.proxy;
  const bytes = result.structuredContent.responseMeta.artifact.byteLength;
  const [parse, parseCpu] = JSON.parse(
    execFileSync(process.execPath, ["--expose-gc", "-e", CHILD, file], { encoding: "utf8" }),
  );
  const r = {
    run,
    payload: bytes,
    startRss: (start0 / 2 ** 20).toFixed(0),
    peakMiB: (peak / 2 ** 20).toFixed(0),
    peakX: +(peak / bytes).toFixed(2),
    aboveStartX: +((peak - start0) / bytes).toFixed(2),
    wall: +wall.toFixed(0),
    childParse: +parse.toFixed(0),
    e2eX: +(wall / parse).toFixed(2),
    proxyCpu: cpu,
    childParseCpu: +parseCpu.toFixed(0),
    cpuX: +(cpu / parseCpu).toFixed(2),
    pipeFloor: +measured.pipeFloor.wall.toFixed(0),
    pipeFloorX: +(measured.pipeFloor.wall / parse).toFixed(2),
    parseFloor: +measured.parseFloor.wall.toFixed(0),
    parseFloorX: +(measured.parseFloor.wall / parse).toFixed(2),
    parseFloorCpu: measured.parseFloor.cpu,
    uptime,
  };
  out.push(r);
  console.log(JSON.stringify(r));
}
const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
const px = out.map((r) => r.peakX),
  ex = out.map((r) => r.e2eX),
  cx = out.map((r) => r.cpuX);
console.log(
  `peak x payload median ${med(px)} (${Math.min(...px)}-${Math.max(...px)}); e2e x parse median ${med(ex)} (${Math.min(...ex)}-${Math.max(...ex)}); proxy CPU x parse CPU median ${med(cx)} (${Math.min(...cx)}-${Math.max(...cx)}); floors x parse: pipe ${med(out.map((r) => r.pipeFloorX))}, parse ${med(out.map((r) => r.parseFloorX))}`,
);

// BENCHMARKS.md (tooling/bench-report): the part proxy.big-call judges the end-to-end and the
// one-call peak RSS targets.
const parse = results.figureOf(
  "JSON.parse of the text, in a child holding only it",
  out.map((r) => r.childParse),
);
const endToEnd = results.figureOf(
  `${MIB} MiB result through the proxy, end to end`,
  out.map((r) => r.wall),
  { baseline: parse },
);
// CPU beside wall: on a shared machine the wall time follows the load, CPU much less.
const parseCpu = results.figureOf(
  "CPU of JSON.parse of the text, in the same child",
  out.map((r) => r.childParseCpu),
);
const proxyCpu = results.figureOf(
  "proxy CPU of the call (all its threads, 10 ms ticks)",
  out.map((r) => r.proxyCpu),
  { baseline: parseCpu },
);
const pipeFloor = results.figureOf(
  "floor: a bare relay reading the line's bytes only (fixtures/big-call-floor.mjs pipe)",
  out.map((r) => r.pipeFloor),
  { baseline: parse },
);
const parseFloor = results.figureOf(
  "floor: a bare relay that also parses the line and the text (big-call-floor.mjs parse)",
  out.map((r) => r.parseFloor),
  { baseline: parse },
);
const parseFloorCpu = results.figureOf(
  "CPU of the parse floor's call",
  out.map((r) => r.parseFloorCpu),
  { baseline: parseCpu },
);
const payload = out[0]?.payload ?? Number.NaN;
const peak = results.figureOf(
  "proxy peak RSS of one call (VmHWM, fresh proxy)",
  out.map((r) => r.peakX * payload),
  { unit: "B", baseline: { name: "payload bytes", median: payload } },
);
results.writeBenchResult("proxy", "big-call", {
  title: `One ${MIB} MiB call through the built proxy over stdio, a fresh proxy per run (${RUNS} runs)`,
  figures: [parse, endToEnd, pipeFloor, parseFloor, parseCpu, proxyCpu, parseFloorCpu, peak],
  targets: [
    results.targetOf(
      "proxy-e2e",
      `${MIB} MiB result through the proxy ≤ 1.25x JSON.parse end to end`,
      endToEnd.ratio ?? Number.NaN,
      "<=",
      1.25,
      "x",
      endToEnd.name,
    ),
    results.targetOf(
      "rss-peak",
      `proxy peak RSS of one ${MIB} MiB call ≤ 5x payload`,
      peak.ratio ?? Number.NaN,
      "<=",
      5,
      "x",
      peak.name,
    ),
  ],
  notes: [`The proxy starts at ${out[0]?.startRss ?? "?"} MiB RSS before the call.`],
});
