// Runs one §9 case of the benchmark in a loop on the warm engine, for a CPU profile:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-extensions.ts "<case name>" [runs] [reading]
// (case names as in extensions-cases.ts; BENCH_EXT_MIB as in extensions.ts). Prints the medians.
// `reading`: "none" (no view cache, the default), "first" (a fresh view cache each run) or
// "second" (a fresh view cache in which the case's earlier question ran, for a case that has one).
import { median } from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, type QueryRequest } from "@bounded-mcp/contract";
import { createKeyRing, createViewCache, runQuery } from "../src/index.js";
import { ALL_EXTENSION_CASES, type EngineResult } from "./extensions-cases.js";
import { generateDocuments } from "./generate-nodes.js";

const name = process.argv[2] ?? "";
const runs = Number(process.argv[3] ?? "50");
const reading = process.argv[4] ?? "none";
if (!["none", "first", "second"].includes(reading)) throw new Error(`no reading ${reading}`);
const item = ALL_EXTENSION_CASES.find((candidate) => candidate.name === name);
if (item === undefined) {
  throw new Error(
    `no case ${JSON.stringify(name)}: ${ALL_EXTENSION_CASES.map((c) => c.name).join("; ")}`,
  );
}
const context = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};
const size = Number(process.env["BENCH_EXT_MIB"] ?? "50") * 1024 * 1024;
const document: unknown = JSON.parse(generateDocuments(size, { tags: true }).arrayText);
let query: QueryRequest = item.engine;
if (item.cursorOf !== undefined) {
  const first = ALL_EXTENSION_CASES.find((candidate) => candidate.name === item.cursorOf);
  const page = runQuery(document, first?.engine as QueryRequest, context).result as EngineResult;
  query = { ...query, cursor: page.responseMeta?.nextCursor as string };
}
const times: number[] = [];
const cpu: number[] = [];
const earlier = item.earlier;
if (reading === "second" && earlier === undefined)
  throw new Error(`${item.name}: no earlier question`);
for (let run = 0; run < runs; run++) {
  const runContext = reading === "none" ? context : { ...context, viewCache: createViewCache() };
  if (reading === "second") runQuery(document, earlier as QueryRequest, runContext);
  const start = performance.now();
  const startCpu = process.cpuUsage();
  const outcome = runQuery(document, query, runContext);
  const usage = process.cpuUsage(startCpu);
  times.push(performance.now() - start);
  cpu.push((usage.user + usage.system) / 1000);
  if (outcome.isError) throw new Error(JSON.stringify(outcome.result));
}
process.stdout.write(
  `${item.name} (${reading}): median ${median(times).toFixed(2)} ms wall, ${median(cpu).toFixed(2)} ms CPU over ${runs} runs\n`,
);
