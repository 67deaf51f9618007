// The mcp-adapter benchmark (issue 5): bounding generated JSON results of 10, 50 and 200 MiB
// in-process (measure, store, preview) with the memory and the fs store, the first query on a
// cold artifact (fs store, no parse cache), a warm filtered and projected page, and peak RSS while
// bounding, each against one JSON.parse of the same text measured in the same process.
// Each size runs in its own process. Run: pnpm --filter @bounded-mcp/mcp-adapter build && pnpm bench
// (sizes can be given: pnpm bench 10 50).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatBytes, formatMs, printTable } from "@bounded-mcp/bench-utils";
import { generatePayloadText } from "./generate-payload.js";

interface TimingFigures {
  payloadBytes: number;
  parse: number;
  boundMemory: number;
  boundFs: number;
  coldQuery: number;
  warmQuery: number;
}

interface PeakFigures {
  rssBefore: number;
  peakRss: number;
}

const sizes = process.argv.slice(2).map(Number);
const script = fileURLToPath(new URL("./run-size.ts", import.meta.url));

function runChild<T>(file: string, mode: "timing" | "peak"): T {
  const child = spawnSync(
    process.execPath,
    ["--expose-gc", "--max-old-space-size=12000", "--import", "tsx", script, file, mode],
    { encoding: "utf8", maxBuffer: 1024 * 1024, stdio: ["ignore", "pipe", "inherit"] },
  );
  if (child.status !== 0) throw new Error(`the ${mode} run on ${file} failed (${child.status})`);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "") as T;
}

function runSize(mebibytes: number): TimingFigures & PeakFigures {
  const directory = mkdtempSync(join(tmpdir(), "bounded-mcp-payload-"));
  const file = join(directory, "payload.json");
  try {
    writeFileSync(file, generatePayloadText(mebibytes * 1024 * 1024).text);
    return {
      ...runChild<PeakFigures>(file, "peak"),
      ...runChild<TimingFigures>(file, "timing"),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const ratio = (value: number, baseline: number) => `${(value / baseline).toFixed(2)}x`;
const rows = [];
for (const mebibytes of sizes.length > 0 ? sizes : [10, 50, 200]) {
  const figures = runSize(mebibytes);
  rows.push({
    payload: formatBytes(figures.payloadBytes),
    "JSON.parse (baseline)": formatMs(figures.parse),
    "bound, memory store": `${formatMs(figures.boundMemory)} (${ratio(figures.boundMemory, figures.parse)})`,
    "bound, fs store": `${formatMs(figures.boundFs)} (${ratio(figures.boundFs, figures.parse)})`,
    "cold first query, fs": `${formatMs(figures.coldQuery)} (${ratio(figures.coldQuery, figures.parse)})`,
    "warm filtered page": `${formatMs(figures.warmQuery)} (${ratio(figures.warmQuery, figures.parse)})`,
    "peak RSS bounding": `${formatBytes(figures.peakRss)} (${ratio(figures.peakRss, figures.payloadBytes)} payload; +${ratio(figures.peakRss - figures.rssBefore, figures.payloadBytes)} over before)`,
  });
}
printTable(
  "mcp-adapter bounding (medians; ratios to JSON.parse of the same text, RSS to payload bytes)",
  rows,
);
