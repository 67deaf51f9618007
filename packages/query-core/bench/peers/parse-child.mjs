// JSON.parse of one file's text, timed in a process that holds only that text (V8's parse cost
// depends on the heap around it, so the benchmark's own heap, which holds the parsed document,
// must not be the one measured). Plain JavaScript: no TypeScript loader in this heap either.
// Usage: node --expose-gc bench/peers/parse-child.mjs <file> [runs]
// Prints one JSON line: {"samples": [wall ms, ...], "cpu": [CPU ms, ...]} (user + system time of
// the process, GC threads included; one warm-up parse first, not reported).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const text = readFileSync(process.argv[2] ?? "", "utf8");
const runs = Number(process.argv[3] ?? "3");
const collect = globalThis.gc ?? (() => {});
const samples = [];
const cpu = [];
let keep = 0;
for (let run = 0; run <= runs; run++) {
  collect();
  const start = performance.now();
  const startCpu = process.cpuUsage();
  const parsed = JSON.parse(text);
  const usage = process.cpuUsage(startCpu);
  const elapsed = performance.now() - start;
  keep += Array.isArray(parsed) ? parsed.length : 1;
  if (run > 0) {
    samples.push(elapsed);
    cpu.push((usage.user + usage.system) / 1000);
  }
}
process.stdout.write(`${JSON.stringify({ samples, cpu, items: keep / (runs + 1) })}\n`);
