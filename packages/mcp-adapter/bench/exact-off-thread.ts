// tsx bench/exact-off-thread.ts   (BENCH_EXACT_MIB, BENCH_EXACT_ROUNDS)
// SPEC.md §10 says exact numbers cost nothing on payloads without them. This measures the
// adapter's two full-document read paths on a 50 MiB generated payload (generate-payload.ts, no
// inexact literal in it), each against the same path without exact numbers, in one run:
//   bound:  encode + hash (startEncodingPayload) and parse of a fresh payload, awaited as
//           bound-result.ts awaits it: "plain" parses with JSON.parse (before exact numbers),
//           "in line" with parseJsonExact (its candidate regex on this thread), "off-thread" with
//           JSON.parse while the hashing thread tests the bytes (this change);
//   stored: a stored body parsed after eviction: "plain" JSON.parse of its UTF-8 text,
//           "in line" parseStoredBody, "off-thread" parseStoredBodyOffThread.
// Figures: main-thread CPU (from /proc/thread-self/schedstat, the thread's on-CPU time: what the
// event loop pays), process CPU (every thread: the helper's work shows here) and wall. Systems
// interleaved per round (order rotating), a full GC before each; medians with min – max. JSON.parse
// also timed in a child process holding only the text.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as results from "@bounded-mcp/bench-utils";
import { formatBytes, formatMs, median, printTable } from "@bounded-mcp/bench-utils";
import { mayHoldInexactNumbers } from "@bounded-mcp/query-core";
import { parseStoredBody, parseStoredBodyOffThread } from "../src/artifacts/artifact-service.js";
import { startEncodingPayload } from "../src/bounding/encode-payload.js";
import { parsePayload } from "../src/bounding/payload.js";
import { generatePayloadText } from "./generate-payload.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.env["BENCH_EXACT_MIB"] ?? "50");
const ROUNDS = Number(process.env["BENCH_EXACT_ROUNDS"] ?? "7");

/** The calling thread's on-CPU time in ms (Linux). */
const threadCpuMs = () =>
  Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;

interface Sample {
  main: number;
  process: number;
  wall: number;
}
const samples = new Map<string, Sample[]>();

/** JSON.parse of the file's text, wall ms, in a child process that holds only that text. */
const CHILD_PARSE = `
const text = require("node:fs").readFileSync(process.argv[1], "utf8");
gc();
const start = performance.now();
JSON.parse(text);
process.stdout.write(String(performance.now() - start));
`;
const childParseMs = (file: string) =>
  Number(
    execFileSync(process.execPath, ["--expose-gc", "-e", CHILD_PARSE, file], { encoding: "utf8" }),
  );

async function measure(name: string, run: () => Promise<unknown> | unknown, counted: boolean) {
  collectGarbage();
  const wall = performance.now();
  const main = threadCpuMs();
  const cpu = process.cpuUsage();
  await run();
  const usage = process.cpuUsage(cpu);
  const sample = {
    main: threadCpuMs() - main,
    process: (usage.user + usage.system) / 1000,
    wall: performance.now() - wall,
  };
  if (!counted) return;
  const list = samples.get(name) ?? [];
  samples.set(name, list);
  list.push(sample);
}

async function main() {
  const text = Buffer.from(generatePayloadText(SIZE_MIB * MIB).text, "utf8").toString("utf8");
  if (mayHoldInexactNumbers(text)) throw new Error("the generated document has number candidates");
  const bytes = Buffer.byteLength(text);
  const stored = Buffer.from(text, "utf8");
  const directory = mkdtempSync(join(tmpdir(), "bench-exact-off-thread-"));
  const file = join(directory, "nodes.json");
  writeFileSync(file, text);
  process.stdout.write(
    `§10 off-thread candidate test: ${formatBytes(bytes)} generated payload, no inexact literal; Node ${process.version}; ${ROUNDS} rounds (+1 warm-up)\n`,
  );
  const bound = async (parse: "plain" | "in line" | "off-thread") => {
    const encoding = startEncodingPayload(text, bytes);
    const tested = encoding.mayHoldInexactNumbers;
    let payload =
      parse === "plain"
        ? parsePayload({ text }, JSON.parse)
        : parse === "in line"
          ? parsePayload({ text })
          : parsePayload({ text }, tested === undefined ? undefined : JSON.parse);
    await encoding.sha256;
    if (parse === "off-thread" && tested !== undefined && (await tested) !== false)
      payload = parsePayload({ text });
    return payload;
  };
  const systems: Record<string, () => Promise<unknown> | unknown> = {
    "bound: plain": () => bound("plain"),
    "bound: in line": () => bound("in line"),
    "bound: off-thread": () => bound("off-thread"),
    "stored: plain": () => JSON.parse(stored.toString("utf8")),
    "stored: in line": () => parseStoredBody(stored, "application/json"),
    "stored: off-thread": () => parseStoredBodyOffThread(stored, "application/json"),
  };
  const child: number[] = [];
  const order = Object.keys(systems);
  for (let round = -1; round < ROUNDS; round++) {
    const shift = Math.max(round, 0) % order.length;
    for (const name of [...order.slice(shift), ...order.slice(0, shift)]) {
      await measure(name, systems[name] as () => unknown, round >= 0);
    }
    if (round >= 0) child.push(childParseMs(file));
    process.stderr.write(`${round < 0 ? "warm-up" : `round ${round + 1}/${ROUNDS}`} done\n`);
  }
  rmSync(directory, { recursive: true, force: true });
  const of = (name: string, key: keyof Sample) => (samples.get(name) ?? []).map((s) => s[key]);
  const cell = (values: number[]) =>
    `${formatMs(median(values))} (${formatMs(Math.min(...values))} – ${formatMs(Math.max(...values))})`;
  const rows = order.map((name) => {
    const plain = `${name.split(":")[0]}: plain`;
    return {
      what: name,
      "main-thread CPU": cell(of(name, "main")),
      "÷ plain (main CPU)": `${(median(of(name, "main")) / median(of(plain, "main"))).toFixed(3)}x`,
      "process CPU": cell(of(name, "process")),
      "÷ plain (process CPU)": `${(median(of(name, "process")) / median(of(plain, "process"))).toFixed(3)}x`,
      wall: cell(of(name, "wall")),
      "÷ plain (wall)": `${(median(of(name, "wall")) / median(of(plain, "wall"))).toFixed(3)}x`,
    };
  });
  process.stdout.write(`JSON.parse in a child process: median ${cell(child)}\n`);
  printTable(
    "read paths: plain JSON.parse vs exact in line vs exact with the test off-thread",
    rows,
  );
  // Per-round ratios to plain, main-thread CPU: the spread of the ratio itself.
  for (const kind of ["bound", "stored"]) {
    for (const variant of ["in line", "off-thread"]) {
      const ratios = of(`${kind}: ${variant}`, "main").map(
        (value, at) => value / (of(`${kind}: plain`, "main")[at] as number),
      );
      process.stdout.write(
        `${kind}: ${variant} ÷ plain per round (main CPU): median ${median(ratios).toFixed(3)}x, ${Math.min(...ratios).toFixed(3)}x – ${Math.max(...ratios).toFixed(3)}x\n`,
      );
    }
  }
}

await main();

// BENCHMARKS.md (tooling/bench-report): main-thread CPU of each read path against its plain
// JSON.parse path, and the SPEC.md §10 zero-cost target, as one part.
{
  const main = (name: string) => (samples.get(name) ?? []).map((sample) => sample.main);
  const figures: results.BenchFigure[] = [];
  const targets: results.BenchTarget[] = [];
  for (const kind of ["bound", "stored"]) {
    const plain = results.figureOf(`${kind}: plain (baseline)`, main(`${kind}: plain`));
    const offThread = results.figureOf(`${kind}: off-thread`, main(`${kind}: off-thread`), {
      baseline: plain,
    });
    figures.push(
      plain,
      results.figureOf(`${kind}: in line`, main(`${kind}: in line`), { baseline: plain }),
      offThread,
    );
    targets.push(
      results.targetOf(
        kind === "bound" ? "exact-precheck" : "exact-precheck-stored",
        `exactness pre-check at zero cost, ${kind === "bound" ? "bounding a result" : "parsing a stored body"}: off-thread ÷ plain, main-thread CPU, ≤ 1.05x`,
        offThread.ratio ?? Number.NaN,
        "<=",
        1.05,
        "x",
        offThread.name,
      ),
    );
  }
  results.writeBenchResult("bounding", "exact", {
    title: `SPEC.md §10 exact numbers on a ${SIZE_MIB} MiB payload without inexact literals (main-thread CPU, ${ROUNDS} rounds)`,
    figures,
    targets,
    notes: [
      '1.05x is this report\'s reading of "zero cost": within the run-to-run noise of one run.',
    ],
  });
}
