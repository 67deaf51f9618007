// Runs one §9 case of the benchmark in a loop on the warm engine, for a CPU profile:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-extensions.ts "<case name>" [runs] [reading]
// (case names as in extensions-cases.ts; BENCH_EXT_MIB as in extensions.ts). Prints the medians.
// `reading`: "none" (no view cache, the default), "first" (a fresh view cache each run) or
// "second" (a fresh view cache in which the case's earlier question ran, for a case that has one).
//
// A/B against another checkout in the same process (reading "none" only):
//   PROFILE_AGAINST=/work/main/packages/query-core/src/index.ts npx tsx bench/profile-extensions.ts "<case>" 9 none 9
// runs `rounds` (the 4th argument) rounds; each round makes a full collection, then alternates
// the two engines run by run (`runs` each, the order flipping every round) and, for a case whose
// two filter paths of one or two steps, a bare-reads floor: a loop that only reads both paths on
// every item (each step a property read, a string's last character), no test, no counts. Both engines'
// answers must be equal. Prints medians, p10-p90 and the median of the per-run ratios.

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { median } from "@bounded-mcp/bench-utils";
import {
  DEFAULT_LIMITS,
  type Filter,
  isAnyOfFilter,
  type QueryRequest,
} from "@bounded-mcp/contract";
import * as engine from "../src/index.js";
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
/** What the bare-reads floor read, so no read is dead code. */
let sink = 0;
const against = process.env["PROFILE_AGAINST"];
if (against !== undefined) {
  await compare(against, Number(process.argv[5] ?? "9"));
  process.exit(0);
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

/** The tokens of every filter path of the query (an anyOf's leaves), or null if one is not a plain pointer. */
function filterTokens(filters: readonly Filter[]): string[][] | null {
  const paths = filters.flatMap((filter) =>
    isAnyOfFilter(filter) ? filter.anyOf.map((leaf) => leaf.path) : [filter.path],
  );
  if (paths.some((path) => !path.startsWith("/") || path.includes("~"))) return null;
  return paths.map((path) => path.slice(1).split("/"));
}

/** One step of the floor's reads (each call site below keeps its own feedback). */
function readOne(value: unknown, token: string | undefined): unknown {
  return token === undefined || typeof value !== "object" || value === null
    ? value
    : (value as Record<string, unknown>)[token];
}

/**
 * The floor for two filter paths of one or two steps: both read on every item in one pass, each
 * step at a property read of its own (as the engine's loops read them), a string's last
 * character taken; nothing decided or counted. Null for other paths.
 */
function bareReadsOf(
  tokens: readonly string[][] | null,
): ((items: readonly unknown[]) => void) | null {
  if (tokens === null || tokens.length !== 2 || tokens.some((path) => path.length > 2)) return null;
  const [a0, a1] = tokens[0] as string[];
  const [b0, b1] = tokens[1] as string[];
  return (items) => {
    let total = 0;
    for (let index = 0; index < items.length; index += 1) {
      const item = items[index];
      if (typeof item !== "object" || item === null) continue;
      const first =
        a1 === undefined
          ? (item as Record<string, unknown>)[a0 as string]
          : readOne((item as Record<string, unknown>)[a0 as string], a1);
      const second =
        b1 === undefined
          ? (item as Record<string, unknown>)[b0 as string]
          : readOne((item as Record<string, unknown>)[b0 as string], b1);
      if (typeof first === "string" && first.length > 0)
        total += first.charCodeAt(first.length - 1);
      if (typeof second === "string" && second.length > 0)
        total += second.charCodeAt(second.length - 1);
    }
    sink += total;
  };
}

async function compare(other: string, rounds: number): Promise<void> {
  if (reading !== "none") throw new Error("PROFILE_AGAINST compares reading none only");
  setFlagsFromString("--expose-gc");
  setFlagsFromString("--no-concurrent-sweeping");
  const collect = runInNewContext("gc") as () => void;
  const base = (await import(other)) as typeof engine;
  const tokens = filterTokens(query.filters ?? []);
  const items = Array.isArray(document) ? document : null;
  const floor = bareReadsOf(tokens);
  const systems: [string, () => string][] = [
    [`against (${other})`, () => JSON.stringify(base.runQuery(document, query, context).result)],
    ["this checkout", () => JSON.stringify(engine.runQuery(document, query, context).result)],
  ];
  if (floor !== null && items !== null)
    systems.push(["bare reads (floor)", () => String(floor(items))]);
  const wall = systems.map((): number[] => []);
  const cpuTimes = systems.map((): number[] => []);
  let answer: string | undefined;
  for (let round = -1; round < rounds; round++) {
    collect();
    for (let run = 0; run < runs; run++) {
      const order = systems.map((_, at) => at);
      if ((round + run) % 2 === 1) order.reverse();
      for (const at of order) {
        const [name, system] = systems[at] as [string, () => string];
        const start = performance.now();
        const startCpu = process.cpuUsage();
        const result = system();
        const usage = process.cpuUsage(startCpu);
        const ms = performance.now() - start;
        if (at < 2) {
          if (answer === undefined) answer = result;
          else if (result !== answer) throw new Error(`${name}: a different answer`);
        }
        if (round >= 0) {
          (wall[at] as number[]).push(ms);
          (cpuTimes[at] as number[]).push((usage.user + usage.system) / 1000);
        }
      }
    }
  }
  const first = wall[0] as number[];
  const at = (list: number[], fraction: number) =>
    ([...list].sort((a, b) => a - b)[Math.floor(fraction * (list.length - 1))] as number).toFixed(
      2,
    );
  process.stdout.write(`${item?.name}: ${rounds} rounds x ${runs} runs (ms)\n`);
  systems.forEach(([name], index) => {
    const list = wall[index] as number[];
    const ratios = list.map((ms, run) => ms / (first[run] as number));
    process.stdout.write(
      `  ${name}: wall median ${median(list).toFixed(2)} (p10 ${at(list, 0.1)}, p90 ${at(list, 0.9)}), ` +
        `CPU median ${median(cpuTimes[index] as number[]).toFixed(2)}, ` +
        `per-run ratio to the first: median ${median(ratios).toFixed(3)} (p10 ${at(ratios, 0.1)}, p90 ${at(ratios, 0.9)})\n`,
    );
  });
  if (sink === 0) process.stdout.write("(the floor read no strings)\n");
}
