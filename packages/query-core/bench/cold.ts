// npx tsx bench/cold.ts (also a table of `bench/index.ts`; BENCH_COLD=0 skips it there)
// The cold filtered page: an artifact not parsed yet, on disk, asked for a filtered and projected
// page with an honest total. Systems, interleaved per round (order rotating), every one reading
// the same file:
// - JSON.parse (baseline): a child process holding only the text (bench/peers/parse-child.mjs);
// - bytes: read the file + runPartialQuery (the byte scan that materializes only the fields the
//   filters and the projection read);
// - parse: read the file + parseJsonExact + runQuery (what a cold query cost before);
// - DuckDB: one query on read_json_auto of the file with threads=1 (a fresh in-memory database
//   per run, created untimed): the same rows, and the total by a window count.
// Every answer is checked against runQuery on the parsed document before any time counts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { formatBytes, formatMs, median, printTable } from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import { DuckDBInstance } from "@duckdb/node-api";
import { parseJsonExact } from "../src/exact/parse-exact.js";
import { createKeyRing, runPartialQuery, runQuery } from "../src/index.js";
import { generateDocuments } from "./generate-nodes.js";
import { type Timing, timed, timeJsonParse } from "./peers/json-parse.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const MIB = 1024 * 1024;

const context = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};

const parsedRequest = parseQueryRequest({
  artifactId: "bench_artifact_0000000000",
  filters: [
    { path: "/type", value: "n8n-nodes-base.httpRequest" },
    { path: "/disabled", value: false },
  ],
  fields: ["id", "name", "/parameters/url"],
});
if (!parsedRequest.success) throw new Error("the cold bench request was rejected");
const REQUEST: QueryRequest = parsedRequest.data;

/** The page's ids and the total, the part every system must agree on. */
interface PageAnswer {
  ids: string[];
  total: number;
}

function engineAnswer(result: unknown): PageAnswer {
  const page = result as {
    response: { id: string }[];
    responseMeta: { totalCount: number };
  };
  return { ids: page.response.map((row) => row.id), total: page.responseMeta.totalCount };
}

function sameAnswer(system: string, answer: PageAnswer, expected: PageAnswer): void {
  const count = Math.min(answer.ids.length, expected.ids.length);
  const same =
    answer.total === expected.total &&
    count === expected.ids.length &&
    answer.ids.slice(0, count).join() === expected.ids.join();
  if (!same) {
    throw new Error(
      `${system} answered ${JSON.stringify(answer).slice(0, 300)}, expected ${JSON.stringify(expected).slice(0, 300)}`,
    );
  }
}

type System = "JSON.parse" | "bytes" | "parse" | "DuckDB";

/** One DuckDB query on the file, in a fresh in-memory database on one thread. */
async function duckDbCold(file: string, rows: number): Promise<Timing & { value: PageAnswer }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET threads=1");
  await connection.run("SET preserve_insertion_order=true");
  const sql =
    `SELECT id, name, parameters.url AS url, count(*) OVER () AS total ` +
    `FROM read_json_auto('${file.replaceAll("'", "''")}', format = 'array') ` +
    `WHERE type = 'n8n-nodes-base.httpRequest' AND disabled = false LIMIT ${rows}`;
  try {
    return await timed(async () => {
      const reader = await connection.runAndReadAll(sql);
      const found = reader.getRowObjectsJS() as { id: string; total: bigint | number }[];
      return { ids: found.map((row) => row.id), total: Number(found[0]?.total ?? 0) };
    });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Runs the cold filtered page table on a generated array of `sizeMiB`; prints it. */
export async function benchColdFiltered(sizeMiB: number, rounds: number): Promise<void> {
  const text = generateDocuments(sizeMiB * MIB).arrayText;
  const directory = mkdtempSync(join(tmpdir(), "bench-cold-"));
  const file = join(directory, "nodes.json");
  writeFileSync(file, text);
  const byteLength = Buffer.byteLength(text);
  const expected = engineAnswer(runQuery(JSON.parse(text), REQUEST, context).result);
  const samples = new Map<System, Timing[]>();
  const record = (system: System, timing: Timing) => {
    const list = samples.get(system) ?? [];
    samples.set(system, list);
    list.push(timing);
  };
  const systems: Record<System, (counted: boolean) => Promise<void>> = {
    "JSON.parse": async (counted) => {
      const parses = await timeJsonParse(file, 1);
      if (counted) for (const timing of parses) record("JSON.parse", timing);
    },
    bytes: async (counted) => {
      collectGarbage();
      const run = await timed(() => runPartialQuery(readFileSync(file), REQUEST, context));
      if (run.value === undefined) throw new Error("runPartialQuery declined the cold request");
      sameAnswer("bytes", engineAnswer(run.value.result), expected);
      if (counted) record("bytes", run);
    },
    parse: async (counted) => {
      collectGarbage();
      const run = await timed(() =>
        runQuery(parseJsonExact(readFileSync(file, "utf8")), REQUEST, context),
      );
      sameAnswer("parse", engineAnswer(run.value.result), expected);
      if (counted) record("parse", run);
    },
    DuckDB: async (counted) => {
      collectGarbage();
      const run = await duckDbCold(file, expected.ids.length);
      sameAnswer("DuckDB", run.value, expected);
      if (counted) record("DuckDB", run);
    },
  };
  const order = Object.keys(systems) as System[];
  const loads: string[] = [];
  try {
    for (let round = -1; round < rounds; round++) {
      loads.push(loadavg()[0]?.toFixed(1) ?? "?");
      const shift = Math.max(round, 0) % order.length;
      for (const system of [...order.slice(shift), ...order.slice(0, shift)]) {
        await systems[system](round >= 0);
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const wallOf = (system: System) => (samples.get(system) ?? []).map((timing) => timing.ms);
  const baseline = median(wallOf("JSON.parse"));
  const duck = median(wallOf("DuckDB"));
  const label: Record<System, string> = {
    "JSON.parse": "JSON.parse in a child process (baseline)",
    bytes: "read + runPartialQuery (byte scan)",
    parse: "read + parseJsonExact + runQuery",
    DuckDB: "DuckDB read_json_auto, threads=1",
  };
  printTable(
    `Cold filtered + projected page (2 filters, 3 fields, honest total; ${expected.total} of the items match), ${formatBytes(byteLength)} array, ${rounds} rounds, 1-minute load ${loads.join(" ")}`,
    order.map((system) => {
      const wall = wallOf(system);
      const cpu = (samples.get(system) ?? []).map((timing) => timing.cpuMs);
      return {
        system: label[system],
        median: formatMs(median(wall)),
        "CPU median": system === "JSON.parse" ? formatMs(median(cpu)) : `${formatMs(median(cpu))}`,
        spread: `${formatMs(Math.min(...wall))}-${formatMs(Math.max(...wall))}`,
        "÷ JSON.parse": `${(median(wall) / baseline).toFixed(2)}x`,
        "÷ DuckDB": `${(median(wall) / duck).toFixed(2)}x`,
      };
    }),
  );
}

if (process.argv[1]?.endsWith("cold.ts") === true) {
  await benchColdFiltered(
    Number(process.env["BENCH_COLD_MIB"] ?? "50"),
    Number(process.env["BENCH_COLD_ROUNDS"] ?? "5"),
  );
}
