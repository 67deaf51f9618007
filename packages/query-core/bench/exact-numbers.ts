// pnpm --filter @bounded-mcp/query-core bench:exact
// SPEC.md §10 says exact numbers cost nothing on payloads without them. This measures the read
// path a stored artifact takes, parse + query, on the 50 MiB node array (no inexact literal in
// it): "before" is JSON.parse and the engine without exact numbers, "after" is parseJsonExact
// and this engine. Each is also a ratio to JSON.parse of the same text timed in a child process
// that holds only the text. The systems are interleaved per round (their order rotates); every
// figure is a median over the rounds, with the spread beside it.
//
// The "before" engine is a build of the base commit's query-core, given as
// BENCH_EXACT_BASELINE=<path to its dist/index.js>; built for example with
//   mkdir -p .bench-results/base && git archive main src | tar -x -C .bench-results/base
//   (and a tsconfig extending ../../../../tooling/tsconfig/library.json, then tsc -p it)
// Without it, "before" runs this engine behind plain JSON.parse (the parse half only).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { formatBytes, formatMs, median, printTable } from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import { mayHoldInexactNumbers } from "../src/exact/detect.js";
import * as after from "../src/index.js";
import { generateDocuments } from "./generate-nodes.js";
import { type Timing, timed, timeJsonParse } from "./peers/json-parse.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.env["BENCH_EXACT_MIB"] ?? "50");
const ROUNDS = Number(process.env["BENCH_EXACT_ROUNDS"] ?? "7");
const PARSES_PER_CHILD = 3;

type Engine = Pick<typeof after, "runQuery" | "createKeyRing">;

const request = (input: Record<string, unknown>): QueryRequest => {
  const parsed = parseQueryRequest({ artifactId: "bench_artifact_0000000000", ...input });
  if (!parsed.success) throw new Error(`bench request rejected: ${parsed.error.message}`);
  return parsed.data;
};

/** The queries after each parse: one of each kind of comparison the exact path touches. */
const QUERIES: Record<string, QueryRequest> = {
  "first page": request({}),
  "eq + gte filters, projected": request({
    filters: [
      { path: "/type", value: "n8n-nodes-base.httpRequest" },
      { path: "/typeVersion", op: "gte", value: 2 },
    ],
    fields: ["id", "name", "/position"],
  }),
  "sort by a number, top 20": request({
    sort: [{ path: "/position/1", order: "desc" }],
    fields: ["id"],
    pageSize: 20,
  }),
  "aggregate max by type": request({
    aggregate: { groupBy: "/type", metrics: [{ op: "max", path: "/typeVersion" }] },
  }),
};

function contextOf(engine: Engine) {
  return {
    scopeHash: "bench-scope",
    keyRing: engine.createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
    responseRoot: "",
    sourceTruncated: false,
    limits: { ...DEFAULT_LIMITS },
  };
}

type System = "JSON.parse (child)" | "before" | "after";
const samples = new Map<string, { wall: number[]; cpu: number[] }>();
function record(system: System, key: string, timing: Timing): void {
  const id = `${system}\u0000${key}`;
  const entry = samples.get(id) ?? { wall: [], cpu: [] };
  samples.set(id, entry);
  entry.wall.push(timing.ms);
  entry.cpu.push(timing.cpuMs);
}
const samplesOf = (system: System, key: string) =>
  samples.get(`${system}\u0000${key}`) ?? { wall: [], cpu: [] };

/** Parses the text and runs every query once: parse, queries and total timed apart. */
async function readPath(
  system: "before" | "after",
  text: string,
  parse: (text: string) => unknown,
  engine: Engine,
  answers: Map<string, string>,
  counted: boolean,
): Promise<void> {
  const context = contextOf(engine);
  collectGarbage();
  const parsed = await timed(() => parse(text));
  let queryMs = 0;
  let queryCpu = 0;
  for (const [name, query] of Object.entries(QUERIES)) {
    const run = await timed(() => engine.runQuery(parsed.value, query, context));
    if (run.value.isError)
      throw new Error(`${system} ${name}: ${JSON.stringify(run.value.result)}`);
    const answer = JSON.stringify(run.value.result);
    const expected = answers.get(name);
    if (expected === undefined) answers.set(name, answer);
    else if (expected !== answer) throw new Error(`${system} answered ${name} differently`);
    queryMs += run.ms;
    queryCpu += run.cpuMs;
    if (counted) record(system, name, run);
  }
  if (counted) {
    record(system, "parse", parsed);
    record(system, "queries", { ms: queryMs, cpuMs: queryCpu });
    record(system, "parse + queries", { ms: parsed.ms + queryMs, cpuMs: parsed.cpuMs + queryCpu });
  }
}

async function main() {
  const baselinePath = process.env["BENCH_EXACT_BASELINE"];
  const before: Engine =
    baselinePath === undefined
      ? after
      : ((await import(pathToFileURL(baselinePath).href)) as Engine);
  const text = generateDocuments(SIZE_MIB * MIB).arrayText;
  if (mayHoldInexactNumbers(text)) throw new Error("the generated document has number candidates");
  const directory = mkdtempSync(join(tmpdir(), "bench-exact-"));
  const file = join(directory, "nodes.json");
  writeFileSync(file, text);
  process.stdout.write(
    `§10 zero-cost benchmark: ${formatBytes(Buffer.byteLength(text))} node array, no inexact literal; ` +
      `Node ${process.version}; before = ${baselinePath === undefined ? "this engine behind JSON.parse" : `JSON.parse + ${baselinePath}`}; ` +
      `${ROUNDS} rounds (+1 warm-up), ${PARSES_PER_CHILD} JSON.parse per child process\n`,
  );
  const answers = new Map<string, string>();
  const systems: Record<System, (counted: boolean) => Promise<void>> = {
    "JSON.parse (child)": async (counted) => {
      const parses = await timeJsonParse(file, PARSES_PER_CHILD);
      if (counted) for (const timing of parses) record("JSON.parse (child)", "parse", timing);
    },
    before: (counted) => readPath("before", text, JSON.parse, before, answers, counted),
    after: (counted) => readPath("after", text, after.parseJsonExact, after, answers, counted),
  };
  const order = Object.keys(systems) as System[];
  for (let round = -1; round < ROUNDS; round++) {
    const shift = Math.max(round, 0) % order.length;
    const rotated = [...order.slice(shift), ...order.slice(0, shift)];
    for (const system of rotated) await systems[system](round >= 0);
    process.stderr.write(`${round < 0 ? "warm-up" : `round ${round + 1}/${ROUNDS}`} done\n`);
  }
  rmSync(directory, { recursive: true, force: true });
  report();
}

function report() {
  const parseWall = median(samplesOf("JSON.parse (child)", "parse").wall);
  const spread = (values: number[]) =>
    `${formatMs(Math.min(...values))} – ${formatMs(Math.max(...values))}`;
  const rows = ["parse", "queries", "parse + queries", ...Object.keys(QUERIES)].map((key) => {
    const was = samplesOf("before", key);
    const now = samplesOf("after", key);
    return {
      what: key,
      "before median": formatMs(median(was.wall)),
      "before min – max": spread(was.wall),
      "after median": formatMs(median(now.wall)),
      "after min – max": spread(now.wall),
      "after ÷ before (wall)": `${(median(now.wall) / median(was.wall)).toFixed(3)}x`,
      "after ÷ before (CPU)": `${(median(now.cpu) / median(was.cpu)).toFixed(3)}x`,
      "after ÷ child JSON.parse": `${(median(now.wall) / parseWall).toFixed(3)}x`,
    };
  });
  const child = samplesOf("JSON.parse (child)", "parse").wall;
  process.stdout.write(
    `JSON.parse in a child process: median ${formatMs(parseWall)} (${spread(child)}, ${child.length} samples)\n`,
  );
  printTable("parse + query, before vs after (medians; wall unless CPU)", rows);
}

await main();
