// Benchmarks report ratios against a baseline measured in the same run (never absolute targets in
// tests). Every helper here is synchronous-friendly and allocation-light.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/** The value at quantile q (0..1) of the numbers, nearest-rank. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

/** The median (nearest-rank quantile 0.5): the figure benchmarks compare as ratios. */
export function median(values) {
  return quantile(values, 0.5);
}

/**
 * Runs fn `runs` times after `warmup` runs and returns the durations in milliseconds.
 * fn may be async. `setup` (optional) runs before each run, untimed.
 */
export async function measure(fn, { runs = 7, warmup = 1, setup } = {}) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i++) {
    const state = setup ? await setup() : undefined;
    const start = performance.now();
    await fn(state);
    const elapsed = performance.now() - start;
    if (i >= warmup) samples.push(elapsed);
  }
  return samples;
}

/** Summary of samples: median, p99, min, max (ms). */
export function summarize(samples) {
  return {
    median: median(samples),
    p99: quantile(samples, 0.99),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
  };
}

/**
 * Samples the process's RSS every `intervalMs` while fn runs; returns fn's result, the peak RSS
 * in bytes, and the RSS before the run.
 */
export async function withPeakRss(fn, { intervalMs = 5 } = {}) {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakRss: peak, rssBefore: before };
  } finally {
    clearInterval(timer);
  }
}

/** A duration in milliseconds for a table cell: whole ms from 100, two decimals from 1, else µs. */
export function formatMs(ms) {
  return ms >= 100
    ? `${ms.toFixed(0)} ms`
    : ms >= 1
      ? `${ms.toFixed(2)} ms`
      : `${(ms * 1000).toFixed(0)} µs`;
}

/** A byte count in binary units (B, KiB, MiB, GiB), one decimal above bytes. */
export function formatBytes(bytes) {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** Prints rows (objects with the same keys) as a Markdown table on stdout. */
export function printTable(title, rows) {
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const lines = [
    `\n### ${title}\n`,
    `| ${keys.join(" | ")} |`,
    `| ${keys.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${keys.map((key) => String(row[key])).join(" | ")} |`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

// ---- Results for BENCHMARKS.md ------------------------------------------------------------
// Each bench entry ends by writing what it already computed as one "part" (JSON) under
// bench/results/parts/ at the repository root; tooling/bench-report turns the parts of one run
// into BENCHMARKS.md, bench/results/latest.json and the SVG charts. Limits: the part holds
// numbers only (no raw samples), and a part from an earlier run stays until the next run of the
// same bench overwrites it (the report prints each part's own date).

/** The directory parts go to: BENCH_RESULTS_DIR, else <repo>/bench/results/parts. */
export function partsDirectory() {
  const override = process.env.BENCH_RESULTS_DIR;
  if (override !== undefined && override !== "") return override;
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "bench", "results", "parts");
}

/**
 * One figure for a part: median and spread (min – max) of the samples, the unit, and the ratio
 * of the median to a baseline figure of the same run (`baseline`: a figure from figureOf, or
 * { name, median }). Samples that are all one number (a single run) give low = high = median.
 */
export function figureOf(name, samples, { unit = "ms", baseline, lowerIsBetter = true } = {}) {
  const values = samples.filter((value) => Number.isFinite(value));
  const middle = values.length === 0 ? Number.NaN : median(values);
  return {
    name,
    median: middle,
    low: values.length === 0 ? null : Math.min(...values),
    high: values.length === 0 ? null : Math.max(...values),
    spread: "min-max",
    unit,
    n: values.length,
    baseline: baseline === undefined ? null : baseline.name,
    ratio: baseline === undefined ? null : middle / baseline.median,
    lowerIsBetter,
  };
}

/** A figure known only as a median (the bench does not keep its samples): spread is null. */
export function medianFigure(name, value, { unit = "ms", baseline, n = null } = {}) {
  return {
    ...figureOf(name, [value], { unit, baseline }),
    low: null,
    high: null,
    spread: null,
    n,
  };
}

/**
 * A target for a part: `id` names it in the report's list of targets, `measured` is the figure
 * compared with `limit` by `op` ("<=" or ">="); `met` is computed here (and again by the report);
 * `figure` (optional) names the figure whose ratio it judges, so the chart marks the limit there.
 */
export function targetOf(id, text, measured, op, limit, unit = "x", figure = null) {
  const met = Number.isFinite(measured)
    ? op === ">="
      ? measured >= limit
      : measured <= limit
    : null;
  return { id, text, measured, op, limit, unit, met, figure };
}

/**
 * Writes one part: `bench/results/parts/<section>.<part>.json` with the figures and targets a
 * bench computed, the Node version and the time; `tables` ({title, header, rows} of strings) are
 * printed as they are, for a table that is not figures (the context benchmark's). Returns the file written. Never throws on a
 * read-only checkout: a failure to write is reported on stderr and the bench goes on.
 */
export function writeBenchResult(
  section,
  part,
  { title, figures = [], targets = [], notes = [], tables = [] },
) {
  const file = join(partsDirectory(), `${section}.${part}.json`);
  const body = {
    section,
    part,
    title,
    node: process.version,
    date: new Date().toISOString(),
    figures,
    targets,
    notes,
    tables,
  };
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  } catch (error) {
    process.stderr.write(`bench result not written (${file}): ${String(error)}\n`);
  }
  return file;
}
