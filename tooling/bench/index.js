// Benchmarks report ratios against a baseline measured in the same run (never absolute targets in
// tests). Every helper here is synchronous-friendly and allocation-light.
import { performance } from "node:perf_hooks";

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
