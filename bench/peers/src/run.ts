// pnpm --filter @bounded-mcp/peers-bench bench (also part of the root `pnpm bench`)
// The engine against its peers on the same generated 50 MiB node array in one run, every system's
// answer (the honest total and the page's ids) checked equal to the engine's before any time counts:
//   warm: the filtered + projected page (2 filters, 3 fields, honest total) on data already loaded:
//         the engine (runQuery on the parsed document: without a view cache; as a first
//         question, which lays out path columns; as a second question, columns left by an
//         earlier query over the same paths: the row the warm target is judged on), DuckDB on a
//         table loaded once (threads=1), a plain JS loop (the floor), jsonpath-plus, and jq 1.6
//         beyond its parse (its whole run minus `jq length` of the same round);
//   cold: the same page from the file: the engine in a fresh process (read + bytes or parse +
//         query; src/cold-child.mjs), DuckDB read_json_auto on the file (threads=1), jq 1.6 whole
//         process; the baseline is JSON.parse of the text in a process that holds only the text.
// Systems interleave per round (their order rotates), after one warm-up round that is checked but
// not counted. Wall-time medians with min – max; ratios of medians. Writes the parts
// bench/results/parts/engine.peers.json and cold.peers.json for BENCHMARKS.md.
// BENCH_PEERS_MIB=10 BENCH_PEERS_ROUNDS=2 for a quick look; BENCH_PEERS_ONLY=warm or
// BENCH_PEERS_ONLY=cold for those rows alone (printed, no parts written).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  type BenchFigure,
  figureOf,
  formatBytes,
  formatMs,
  printTable,
  targetOf,
  writeBenchResult,
} from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import {
  createKeyRing,
  createViewCache,
  type QueryContext,
  runQuery,
} from "@bounded-mcp/query-core";
import { DuckDBInstance } from "@duckdb/node-api";
import { JSONPath } from "jsonpath-plus";
import { generateDocuments } from "../../../packages/query-core/bench/generate-nodes.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.env["BENCH_PEERS_MIB"] ?? "50");
const ROUNDS = Number(process.env["BENCH_PEERS_ROUNDS"] ?? "5");
/** `BENCH_PEERS_ONLY=warm`: the warm systems only (no child processes, no cold rows). */
const WARM_ONLY = process.env["BENCH_PEERS_ONLY"] === "warm";
/** `BENCH_PEERS_ONLY=cold`: the cold systems only (no table load, no warm rows; printed, no parts). */
const COLD_ONLY = process.env["BENCH_PEERS_ONLY"] === "cold";
/**
 * `BENCH_COLD_BASELINE_CHILD=<path>`: another cold child (e.g. a copy of cold-child.mjs importing
 * an earlier build of query-core) run in the same rounds, for a before/after in one run.
 */
const COLD_BASELINE_CHILD = process.env["BENCH_COLD_BASELINE_CHILD"];
/** Timed runs per round of each in-process warm system. */
const INNER_RUNS = 3;
const JQ = process.env["BENCH_JQ"] ?? "/usr/bin/jq";
const TYPE = "n8n-nodes-base.httpRequest";
const COLD_CHILD = fileURLToPath(new URL("./cold-child.mjs", import.meta.url));
const PARSE_CHILD = fileURLToPath(
  new URL("../../../packages/query-core/bench/peers/parse-child.mjs", import.meta.url),
);

const context: QueryContext = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};
const requestInput = {
  artifactId: "bench_artifact_0000000000",
  filters: [
    { path: "/type", value: TYPE },
    { path: "/disabled", value: false },
  ],
  fields: ["id", "name", "/parameters/url"],
};
function parsed(input: Record<string, unknown>): QueryRequest {
  const outcome = parseQueryRequest(input);
  if (!outcome.success) throw new Error(outcome.error.message);
  return outcome.data;
}
const request = parsed(requestInput);
/**
 * The earlier question of the "second question" row: the same paths and fields, other values (so
 * its view is another view: only the path columns it left behind serve the timed query).
 */
const earlierRequest = parsed({
  ...requestInput,
  filters: [
    { path: "/type", value: "n8n-nodes-base.code" },
    { path: "/disabled", value: true },
  ],
});

interface Node {
  id: string;
  name: string;
  type: string;
  disabled: boolean;
  parameters: { url?: string };
}
type Answer = string;
const answerOf = (total: unknown, ids: unknown[]): Answer =>
  JSON.stringify({ total: Number(total), ids });

function run(command: string, args: string[]): Promise<{ stdout: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve({ stdout: Buffer.concat(out).toString("utf8"), ms });
      else reject(new Error(`${command} exited with ${code}`));
    });
  });
}

/** Wall time and this process's CPU time (user + system, every thread: DuckDB's too), in ms. */
function timed<T>(work: () => T): { ms: number; cpu: number; value: T } {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}
async function timedAsync<T>(
  work: () => Promise<T>,
): Promise<{ ms: number; cpu: number; value: T }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}

const samples = new Map<string, number[]>();
const record = (name: string, ms: number, counted: boolean) => {
  if (!counted) return;
  const list = samples.get(name) ?? [];
  samples.set(name, list);
  list.push(ms);
};
const mismatches: string[] = [];
let reference: Answer | undefined;
function check(system: string, answer: Answer) {
  if (reference === undefined) reference = answer;
  else if (answer !== reference) mismatches.push(`${system}: ${answer.slice(0, 160)}`);
}

async function main() {
  const text = generateDocuments(SIZE_MIB * MIB).arrayText;
  const directory = mkdtempSync(join(tmpdir(), "bench-peers-"));
  const file = join(directory, "nodes.json");
  writeFileSync(file, text);
  const byteLength = Buffer.byteLength(text);
  const document = JSON.parse(text) as Node[];
  const first = runQuery(document, request, context);
  const meta = (first.result as { responseMeta: { returnedCount: number } }).responseMeta;
  const pageSize = meta.returnedCount;
  const hasJq = !WARM_ONLY && existsSync(JQ);
  const jqVersion = hasJq ? (await run(JQ, ["--version"])).stdout.trim() : null;
  const instance = await DuckDBInstance.create(":memory:");
  const duck = await instance.connect();
  await duck.run("SET threads=1");
  await duck.run("SET preserve_insertion_order=true");
  const duckVersion = String(
    (await duck.runAndReadAll("SELECT version() AS v")).getRowObjectsJS()[0]?.["v"],
  );
  const quoted = `'${file.replaceAll("'", "''")}'`;
  const load = COLD_ONLY
    ? { ms: Number.NaN }
    : await timedAsync(() =>
        duck.run(`CREATE TABLE nodes AS SELECT * FROM read_json_auto(${quoted}, format = 'array')`),
      );
  const pageSql = (from: string) =>
    `SELECT id, name, parameters.url AS url, count(*) OVER () AS total FROM ${from} ` +
    `WHERE type = '${TYPE}' AND disabled = false ORDER BY rowid LIMIT ${pageSize}`;
  // read_json_auto has no rowid: the cold query keeps the file's order with one thread.
  const coldSql =
    `SELECT id, name, parameters.url AS url, count(*) OVER () AS total FROM ` +
    `read_json_auto(${quoted}, format = 'array') WHERE type = '${TYPE}' AND disabled = false LIMIT ${pageSize}`;
  const duckAnswer = (rows: Record<string, unknown>[]) =>
    answerOf(
      rows[0]?.["total"] ?? 0,
      rows.map((row) => row["id"]),
    );
  const jqProgram =
    `[.[] | select(.type == "${TYPE}" and .disabled == false)] | ` +
    `{total: length, ids: [.[0:${pageSize}][] | .id]}`;
  const jqAnswer = (stdout: string) => {
    const output = JSON.parse(stdout) as { total: number; ids: string[] };
    return answerOf(output.total, output.ids);
  };
  process.stdout.write(
    `peers bench: ${formatBytes(byteLength)} array of ${document.length} nodes; Node ${process.version}; ` +
      `${jqVersion ?? `jq ABSENT (${JQ} not found: jq rows skipped)`}; DuckDB ${duckVersion} (@duckdb/node-api, threads=1); ` +
      `jsonpath-plus; ${ROUNDS} rounds (+1 warm-up)\n`,
  );

  /** INNER_RUNS timed runs of runQuery, each with the context `contextOf` makes untimed. */
  const timeEngine = (name: string, counted: boolean, contextOf: () => QueryContext) => {
    collectGarbage();
    for (let index = 0; index < INNER_RUNS; index++) {
      const runContext = contextOf();
      const { ms, cpu, value } = timed(() => runQuery(document, request, runContext));
      const result = value.result as {
        response: { id: string }[];
        responseMeta: { totalCount: number };
      };
      check(
        name,
        answerOf(
          result.responseMeta.totalCount,
          result.response.map((item) => item.id),
        ),
      );
      record(name, ms, counted);
      record(`${name} CPU`, cpu, counted);
    }
  };
  let coldPath = "";
  /**
   * Runs a cold child (2 timed runs after an untimed one); records wall and CPU; its path. With
   * `background`, the child also parses the document afterwards as the adapter does, and the
   * times through the end of that parse are recorded under `${name}` instead.
   */
  const timeColdChild = async (
    name: string,
    child: string,
    counted: boolean,
    background = false,
  ) => {
    const { stdout } = await run(process.execPath, [
      "--expose-gc",
      child,
      file,
      JSON.stringify(request),
      "2",
      ...(background ? ["background"] : []),
    ]);
    const output = JSON.parse(stdout) as {
      samples: number[];
      cpu: number[];
      throughParse?: number[];
      throughParseCpu?: number[];
      path: string;
      answer: { total: number; ids: string[] };
    };
    check(name, answerOf(output.answer.total, output.answer.ids));
    const wall = background ? (output.throughParse ?? []) : output.samples;
    const cpu = background ? (output.throughParseCpu ?? []) : output.cpu;
    for (const ms of wall) record(name, ms, counted);
    for (const ms of cpu) record(`${name} CPU`, ms, counted);
    return output.path;
  };
  const systems: Record<string, (counted: boolean) => Promise<void>> = {
    "JSON.parse": async (counted) => {
      const { stdout } = await run(process.execPath, ["--expose-gc", PARSE_CHILD, file, "3"]);
      for (const ms of (JSON.parse(stdout) as { samples: number[] }).samples)
        record("JSON.parse", ms, counted);
    },
    engine: async (counted) => timeEngine("engine", counted, () => context),
    // What the product does on a first question over a parsed artifact (a view cache, as the
    // adapter passes one): the filters lay out their path columns as they run.
    "engine first": async (counted) =>
      timeEngine("engine first", counted, () => ({ ...context, viewCache: createViewCache() })),
    // And on a second question: an earlier query over the same paths (other values, so another
    // view) left its path columns in the cache; the timed query's own view is not cached.
    "engine second": async (counted) =>
      timeEngine("engine second", counted, () => {
        const viewCache = createViewCache();
        runQuery(document, earlierRequest, { ...context, viewCache });
        return { ...context, viewCache };
      }),
    "JS loop": async (counted) => {
      collectGarbage();
      for (let index = 0; index < INNER_RUNS; index++) {
        const { ms, cpu, value } = timed(() => {
          let total = 0;
          const page: { id: string; name: string; url: string | undefined }[] = [];
          for (const node of document) {
            if (node.type !== TYPE || node.disabled !== false) continue;
            total++;
            if (page.length < pageSize) {
              page.push({ id: node.id, name: node.name, url: node.parameters.url });
            }
          }
          return JSON.stringify({ total, page });
        });
        const parsed = JSON.parse(value) as { total: number; page: { id: string }[] };
        check(
          "JS loop",
          answerOf(
            parsed.total,
            parsed.page.map((item) => item.id),
          ),
        );
        record("JS loop", ms, counted);
        record("JS loop CPU", cpu, counted);
      }
    },
    "jsonpath-plus": async (counted) => {
      collectGarbage();
      const { ms, cpu, value } = timed(() => {
        const matches = JSONPath({
          path: `$[?(@.type === '${TYPE}' && @.disabled === false)]`,
          json: document,
          wrap: true,
        }) as Node[];
        const page = matches
          .slice(0, pageSize)
          .map((node) => ({ id: node.id, name: node.name, url: node.parameters.url }));
        return JSON.stringify({ total: matches.length, page });
      });
      const parsed = JSON.parse(value) as { total: number; page: { id: string }[] };
      check(
        "jsonpath-plus",
        answerOf(
          parsed.total,
          parsed.page.map((item) => item.id),
        ),
      );
      record("jsonpath-plus", ms, counted);
      record("jsonpath-plus CPU", cpu, counted);
    },
    "DuckDB table": async (counted) => {
      for (let index = 0; index < INNER_RUNS; index++) {
        const { ms, cpu, value } = await timedAsync(async () =>
          (await duck.runAndReadAll(pageSql("nodes"))).getRowObjectsJS(),
        );
        check("DuckDB table", duckAnswer(value));
        record("DuckDB table", ms, counted);
        record("DuckDB table CPU", cpu, counted);
      }
    },
    "DuckDB read_json_auto": async (counted) => {
      const { ms, cpu, value } = await timedAsync(async () =>
        (await duck.runAndReadAll(coldSql)).getRowObjectsJS(),
      );
      check("DuckDB read_json_auto", duckAnswer(value));
      record("DuckDB read_json_auto", ms, counted);
      record("DuckDB read_json_auto CPU", cpu, counted);
    },
    "engine cold": async (counted) => {
      coldPath = await timeColdChild("engine cold", COLD_CHILD, counted);
    },
    // What the adapter goes on to do after a page answered from the bytes: the background parse
    // for later queries (after the answer is out; not part of the cold page, reported beside it).
    "engine cold + background parse": async (counted) => {
      await timeColdChild("engine cold + background parse", COLD_CHILD, counted, true);
    },
    ...(COLD_BASELINE_CHILD === undefined
      ? {}
      : {
          "engine cold (baseline child)": async (counted: boolean) => {
            await timeColdChild("engine cold (baseline child)", COLD_BASELINE_CHILD, counted);
          },
        }),
    jq: async (counted) => {
      if (!hasJq) return;
      const own = await run(JQ, ["length", file]);
      const page = await run(JQ, ["-c", jqProgram, file]);
      check("jq", jqAnswer(page.stdout));
      record("jq length", own.ms, counted);
      record("jq whole process", page.ms, counted);
      record("jq beyond its parse", page.ms - own.ms, counted);
    },
  };
  const coldSystems = new Set([
    "JSON.parse",
    "DuckDB read_json_auto",
    "engine cold",
    "engine cold + background parse",
    "engine cold (baseline child)",
    "jq",
  ]);
  const order = Object.keys(systems).filter((name) =>
    WARM_ONLY ? !coldSystems.has(name) : !COLD_ONLY || coldSystems.has(name),
  );
  for (let round = -1; round < ROUNDS; round++) {
    const shift = Math.max(round, 0) % order.length;
    for (const name of [...order.slice(shift), ...order.slice(0, shift)]) {
      await (systems[name] as (counted: boolean) => Promise<void>)(round >= 0);
    }
    process.stderr.write(`${round < 0 ? "warm-up round" : `round ${round + 1}/${ROUNDS}`} done\n`);
  }
  duck.closeSync();
  instance.closeSync();
  rmSync(directory, { recursive: true, force: true });

  const of = (name: string) => samples.get(name) ?? [];
  const parse = figureOf("JSON.parse in a child process (baseline)", of("JSON.parse"));
  const duckTable = figureOf("DuckDB, loaded table (baseline)", of("DuckDB table"));
  const warm: BenchFigure[] = [
    duckTable,
    figureOf("bounded-mcp engine, warm (runQuery, no view cache)", of("engine"), {
      baseline: duckTable,
    }),
    figureOf("bounded-mcp engine, first question (lays out path columns)", of("engine first"), {
      baseline: duckTable,
    }),
    figureOf("bounded-mcp engine, second question (path columns cached)", of("engine second"), {
      baseline: duckTable,
    }),
    figureOf("plain JS loop (the floor)", of("JS loop"), { baseline: duckTable }),
    figureOf("jsonpath-plus", of("jsonpath-plus"), { baseline: duckTable }),
    ...(hasJq
      ? [figureOf("jq 1.6, beyond its parse", of("jq beyond its parse"), { baseline: duckTable })]
      : []),
  ];
  const readJson = figureOf(
    "DuckDB read_json_auto, 1 thread (baseline)",
    of("DuckDB read_json_auto"),
  );
  const engineCold = figureOf(
    `bounded-mcp engine, cold (read + ${coldPath === "bytes" ? "byte scan" : "parse"} + query)`,
    of("engine cold"),
    { baseline: readJson },
  );
  const throughParse = figureOf(
    "bounded-mcp engine, cold page then the background parse for later queries",
    of("engine cold + background parse"),
    { baseline: readJson },
  );
  const cold: BenchFigure[] = [
    readJson,
    engineCold,
    throughParse,
    figureOf("JSON.parse in a child process", of("JSON.parse"), { baseline: readJson }),
    ...(hasJq
      ? [figureOf("jq 1.6, whole process", of("jq whole process"), { baseline: readJson })]
      : []),
  ];
  // CPU time (user + system of the process, every thread): on a loaded machine steadier than
  // wall time, which also counts the time a runnable thread waits for a core.
  const duckTableCpu = figureOf("DuckDB, loaded table, CPU (baseline)", of("DuckDB table CPU"));
  const warmCpu: BenchFigure[] = [
    duckTableCpu,
    figureOf("bounded-mcp engine, warm, no view cache, CPU", of("engine CPU"), {
      baseline: duckTableCpu,
    }),
    figureOf("bounded-mcp engine, first question, CPU", of("engine first CPU"), {
      baseline: duckTableCpu,
    }),
    figureOf("bounded-mcp engine, second question, CPU", of("engine second CPU"), {
      baseline: duckTableCpu,
    }),
    figureOf("plain JS loop, CPU", of("JS loop CPU"), { baseline: duckTableCpu }),
    figureOf("jsonpath-plus, CPU", of("jsonpath-plus CPU"), { baseline: duckTableCpu }),
  ];
  const readJsonCpu = figureOf(
    "DuckDB read_json_auto, 1 thread, CPU (baseline)",
    of("DuckDB read_json_auto CPU"),
  );
  const engineColdCpu = figureOf("bounded-mcp engine, cold, CPU", of("engine cold CPU"), {
    baseline: readJsonCpu,
  });
  const throughParseCpu = figureOf(
    "bounded-mcp engine, cold page then the background parse, CPU",
    of("engine cold + background parse CPU"),
    { baseline: readJsonCpu },
  );
  // The target is judged on the second question: what a proxy (which always passes a view cache)
  // answers on any question after the first over the same paths of a parsed artifact.
  const engineWarm = warm[3] as BenchFigure;
  const engineWarmCpu = warmCpu[3] as BenchFigure;
  // What laying out the columns costs the first question: its time over the engine's without a
  // view cache, in the same run (wall and CPU).
  const firstCost = [
    figureOf("(first question ÷ engine without a view cache)", of("engine first"), {
      baseline: warm[1] as BenchFigure,
    }),
    figureOf("(first question ÷ engine without a view cache), CPU", of("engine first CPU"), {
      baseline: warmCpu[1] as BenchFigure,
    }),
  ];
  const notes = [
    `${formatBytes(byteLength)} generated node array (${document.length} nodes); the page: ${pageSize} items, total ${JSON.parse(reference ?? "{}").total}; ${ROUNDS} rounds (+1 warm-up), order rotating; DuckDB ${duckVersion}${COLD_ONLY ? "" : `, load of the table once: ${formatMs(load.ms)} (not in the query times)`}.`,
    hasJq
      ? `${jqVersion} from ${JQ} (whole processes: wall time only).`
      : WARM_ONLY
        ? "jq not run (BENCH_PEERS_ONLY=warm)."
        : `jq not measured: ${JQ} does not exist (apt-get install -y jq).`,
    "Targets are judged on wall time and, apart, on CPU time (user + system of the process, every thread), which a loaded machine inflates less.",
    "The warm target is judged on the second question: what a proxy (it always passes a view cache) answers on a question after the first over the same paths of a parsed artifact; each timed run gets a fresh view cache in which an untimed earlier query (same paths and fields, type code and disabled true: another view) left its path columns. The first question (a fresh view cache: it lays out the columns as it filters) and the engine without a view cache are measured in the same rounds.",
    mismatches.length === 0
      ? "Every system's answer (total and page ids) equals the engine's, every run."
      : `ANSWERS DIFFER: ${mismatches.join("; ")}`,
  ];
  const cell = (figure: BenchFigure) => ({
    system: figure.name,
    median: formatMs(figure.median),
    "min – max": `${formatMs(figure.low ?? Number.NaN)} – ${formatMs(figure.high ?? Number.NaN)}`,
    ratio: figure.ratio === null ? "" : `${figure.ratio.toFixed(3)}x`,
    n: figure.n,
  });
  // The baseline child's rows (BENCH_COLD_BASELINE_CHILD), beside the engine's, same baselines.
  const baselineChild =
    COLD_BASELINE_CHILD === undefined
      ? []
      : [
          figureOf("cold child of BENCH_COLD_BASELINE_CHILD", of("engine cold (baseline child)"), {
            baseline: readJson,
          }),
          figureOf(
            "cold child of BENCH_COLD_BASELINE_CHILD, CPU",
            of("engine cold (baseline child) CPU"),
            { baseline: readJsonCpu },
          ),
        ];
  if (COLD_ONLY) {
    printTable(
      "cold filtered + projected page (ratio to DuckDB read_json_auto)",
      [...cold, readJsonCpu, engineColdCpu, throughParseCpu, ...baselineChild].map(cell),
    );
    process.stdout.write(`\n${notes.join("\n")}\n(BENCH_PEERS_ONLY=cold: no parts written)\n`);
    if (mismatches.length > 0) process.exitCode = 1;
    return;
  }
  if (WARM_ONLY) {
    printTable(
      "warm filtered + projected page (ratio to DuckDB's loaded table)",
      [...warm, ...warmCpu, ...firstCost].map(cell),
    );
    process.stdout.write(`\n${notes.join("\n")}\n(BENCH_PEERS_ONLY=warm: no parts written)\n`);
    if (mismatches.length > 0) process.exitCode = 1;
    return;
  }
  writeBenchResult("engine", "peers", {
    title: `Warm filtered + projected page against peers (${SIZE_MIB} MiB node array)`,
    figures: [...warm, ...warmCpu, ...firstCost, { ...parse, ratio: null, baseline: null }],
    targets: [
      targetOf(
        "warm-filtered-vs-duckdb",
        "warm filtered page, second question (path columns cached) ≤ DuckDB's loaded table (engine ÷ DuckDB, wall)",
        engineWarm.ratio ?? Number.NaN,
        "<=",
        1,
        "x",
        engineWarm.name,
      ),
      targetOf(
        "warm-filtered-vs-duckdb-cpu",
        "warm filtered page, second question (path columns cached) ≤ DuckDB's loaded table (engine ÷ DuckDB, CPU)",
        engineWarmCpu.ratio ?? Number.NaN,
        "<=",
        1,
        "x",
        engineWarmCpu.name,
      ),
    ],
    notes,
  });
  writeBenchResult("cold", "peers", {
    title: `Cold filtered + projected page from the file (${SIZE_MIB} MiB node array)`,
    figures: [
      ...cold,
      figureOf("(engine cold ÷ JSON.parse)", of("engine cold"), { baseline: parse }),
      readJsonCpu,
      engineColdCpu,
      throughParseCpu,
    ],
    targets: [
      targetOf(
        "cold-filtered-vs-duckdb",
        "cold filtered page ≤ DuckDB's read_json_auto, 1 thread (engine ÷ DuckDB, wall)",
        engineCold.ratio ?? Number.NaN,
        "<=",
        1,
        "x",
        engineCold.name,
      ),
      targetOf(
        "cold-filtered-vs-duckdb-cpu",
        "cold filtered page ≤ DuckDB's read_json_auto, 1 thread (engine ÷ DuckDB, CPU)",
        engineColdCpu.ratio ?? Number.NaN,
        "<=",
        1,
        "x",
        engineColdCpu.name,
      ),
    ],
    notes: [
      ...notes,
      `The engine's cold page was answered by ${coldPath === "bytes" ? "the byte scanner (runPartialQuery)" : "a full parse then runQuery (runPartialQuery declined)"}.`,
      'The row "cold page then the background parse" is the same child going on, each run, to parse the document on the next turn of the event loop, as the adapter does after a page answered from the bytes (for its parse cache: later queries of the artifact). The cold targets are judged up to the answer: the adapter returns it before that parse is scheduled, and the parse is a cache fill, as DuckDB\'s table load is apart from its read_json_auto row.',
    ],
  });
  printTable(
    "warm filtered + projected page (ratio to DuckDB's loaded table)",
    [...warm, ...warmCpu, ...firstCost].map(cell),
  );

  printTable(
    "cold filtered + projected page (ratio to DuckDB read_json_auto)",
    [...cold, readJsonCpu, engineColdCpu, throughParseCpu, ...baselineChild].map(cell),
  );
  process.stdout.write(`\n${notes.join("\n")}\n`);
  if (mismatches.length > 0) process.exitCode = 1;
}

await main();
