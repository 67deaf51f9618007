// The mcp-adapter benchmark (issue 5): bounding generated JSON results of 10, 50 and 200 MiB
// in-process (measure, store, preview) with the memory and the fs store, the first query on a
// cold artifact (fs store, no parse cache: a plain first page, answered from the stored bytes,
// and a filtered page, which parses the whole document), a warm filtered and projected page, and
// peak RSS while bounding, each against one JSON.parse of the same text measured in the same
// process. Bounding and parse figures also show the garbage collection inside them.
// Each size runs in its own processes (timing: bench/run-size.ts; peak RSS: bench/peak-rss.mjs). Run: pnpm --filter @bounded-mcp/mcp-adapter build && pnpm bench
// (sizes can be given: pnpm bench 10 50).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import { formatBytes, formatMs, printTable } from "@bounded-mcp/bench-utils";
import { generatePayloadText } from "./generate-payload.js";

interface TimingFigures {
  payloadBytes: number;
  parse: number;
  boundMemory: number;
  boundFs: number;
  coldQuery: number;
  coldFiltered: number;
  warmQuery: number;
  /** Median milliseconds of garbage collection inside the timed runs. */
  gc: { parse: number; boundMemory: number; boundFs: number };
  /** Medians of per-round ratios to JSON.parse (warmQuery: to the median JSON.parse). */
  ratios: {
    boundMemory: number;
    boundFs: number;
    coldQuery: number;
    coldFiltered: number;
    warmQuery: number;
  };
}

interface PeakFigures {
  rssBefore: number;
  peakRss: number;
}

const sizes = process.argv.slice(2).map(Number);
const script = fileURLToPath(new URL("./run-size.ts", import.meta.url));

const peakScript = fileURLToPath(new URL("./peak-rss.mjs", import.meta.url));

/** Runs one child process and returns its last stdout line, parsed. */
function runChild<T>(argumentsList: string[], what: string): T {
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=12000", ...argumentsList],
    {
      encoding: "utf8",
      maxBuffer: 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (child.status !== 0) throw new Error(`${what} failed (${child.status})`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as T;
}

function runSize(mebibytes: number): TimingFigures & PeakFigures {
  const directory = mkdtempSync(join(tmpdir(), "bounded-mcp-payload-"));
  const file = join(directory, "payload.json");
  try {
    writeFileSync(file, generatePayloadText(mebibytes * 1024 * 1024).text);
    return {
      ...runChild<PeakFigures>([peakScript, file], `the peak RSS run on ${file}`),
      ...runChild<TimingFigures>(["--import", "tsx", script, file], `the timing run on ${file}`),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}x`;
const times = (value: number) => `${value.toFixed(2)}x`;
const rows = [];
const measured: [number, TimingFigures & PeakFigures][] = [];
for (const mebibytes of sizes.length > 0 ? sizes : [10, 50, 200]) {
  const figures = runSize(mebibytes);
  measured.push([mebibytes, figures]);
  rows.push({
    payload: formatBytes(figures.payloadBytes),
    "JSON.parse (baseline)": `${formatMs(figures.parse)} (gc ${formatMs(figures.gc.parse)})`,
    "bound, memory store": `${formatMs(figures.boundMemory)} (${times(figures.ratios.boundMemory)}; gc ${formatMs(figures.gc.boundMemory)})`,
    "bound, fs store": `${formatMs(figures.boundFs)} (${times(figures.ratios.boundFs)}; gc ${formatMs(figures.gc.boundFs)})`,
    "cold first query, fs": `${formatMs(figures.coldQuery)} (${times(figures.ratios.coldQuery)})`,
    "cold filtered query, fs (full parse)": `${formatMs(figures.coldFiltered)} (${times(figures.ratios.coldFiltered)})`,
    "warm filtered page": `${formatMs(figures.warmQuery)} (${times(figures.ratios.warmQuery)})`,
    "peak RSS bounding": `${formatBytes(figures.peakRss)} (${ratio(figures.peakRss, figures.payloadBytes)} payload; +${ratio(figures.peakRss - figures.rssBefore, figures.payloadBytes)} over before)`,
  });
}
printTable(
  "mcp-adapter bounding (medians; ratios: medians of per-round ratios to JSON.parse of the same text; RSS to payload bytes)",
  rows,
);

// BENCHMARKS.md (tooling/bench-report): the medians above as one part (run-size.ts reports
// medians of per-round ratios, not its samples: no spread here).
{
  const figures: results.BenchFigure[] = [];
  for (const [mebibytes, f] of measured) {
    const parse = { name: `${mebibytes} MiB: JSON.parse (baseline)`, median: f.parse };
    const line = (name: string, median: number, ratio: number) => ({
      ...results.medianFigure(`${mebibytes} MiB: ${name}`, median, { baseline: parse }),
      ratio,
    });
    figures.push(
      results.medianFigure(parse.name, f.parse),
      line("bound, memory store", f.boundMemory, f.ratios.boundMemory),
      line("bound, fs store", f.boundFs, f.ratios.boundFs),
      line("cold first page, fs", f.coldQuery, f.ratios.coldQuery),
      line("cold filtered page, fs", f.coldFiltered, f.ratios.coldFiltered),
      line("warm filtered page", f.warmQuery, f.ratios.warmQuery),
      results.medianFigure(`${mebibytes} MiB: peak RSS bounding`, f.peakRss, {
        unit: "B",
        baseline: { name: "payload bytes", median: f.payloadBytes },
      }),
    );
  }
  results.writeBenchResult("bounding", "adapter", {
    title:
      "Bounding in-process (medians; ratios are medians of per-round ratios to JSON.parse of the same text)",
    figures,
  });
}
