// Peak RSS while bounding one payload (mode "peak" of the benchmark), in its own process that
// holds only the payload text. Plain JavaScript on purpose: a TypeScript loader (tsx runs its
// module hooks in a worker thread, about 46 MB) would be counted in the peak though bounding
// never uses it. Prints one JSON line: RSS before bounding and the peak (VmHWM), in bytes.
// Usage: node --expose-gc --max-old-space-size=12000 bench/peak-rss.mjs <file>
import { readFileSync, writeFileSync } from "node:fs";
import { createMemoryStore } from "@bounded-mcp/stores";
import { createBoundedMcp } from "../dist/index.js";

const MEBIBYTE = 1024 * 1024;

/** VmHWM (peak RSS) and VmRSS of this process, in bytes (Linux). */
function memoryStatus() {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kib("VmHWM"), current: kib("VmRSS") };
}

const text = readFileSync(process.argv[2] ?? "", "utf8");
const result = { content: [{ type: "text", text }] };
globalThis.gc?.();
const rssBefore = memoryStatus().current;
writeFileSync("/proc/self/clear_refs", "5");
const bounded = createBoundedMcp({
  keys: `bench:${"cd".repeat(32)}`,
  environment: {},
  artifactStore: createMemoryStore({ maxBytes: 8 * 1024 * MEBIBYTE }),
  artifactMaxBytes: 1024 * MEBIBYTE,
});
await bounded.boundResult(result);
const peakRss = memoryStatus().peak;
await bounded.dispose();
process.stdout.write(`${JSON.stringify({ rssBefore, peakRss })}\n`);
