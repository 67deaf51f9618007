// The engine's cold filtered page, timed in a process that holds nothing but what the page needs
// (V8's parse cost depends on the heap around it, so the bench's own heap, which holds the parsed
// document for the warm rows, must not be the one measured). Each run starts from the file:
// read the bytes, answer from the bytes (runPartialQuery) when the engine can, else parse (exact
// numbers checked as the adapter does) and runQuery. Plain JavaScript on the built packages.
// Usage: node --expose-gc src/cold-child.mjs <file> <request JSON> <runs>
// Prints one JSON line: {"samples": [wall ms], "cpu": [CPU ms], "path": "bytes" | "parse", "answer"}.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import {
  createKeyRing,
  mayHoldInexactNumbers,
  parseJsonExact,
  runPartialQuery,
  runQuery,
} from "@bounded-mcp/query-core";

const [file = "", requestText = "{}", runsText = "3"] = process.argv.slice(2);
const request = JSON.parse(requestText);
const context = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};
const collect = globalThis.gc ?? (() => {});

function coldPage() {
  const bytes = readFileSync(file);
  const fromBytes = runPartialQuery(bytes, request, context);
  if (fromBytes !== undefined) return { outcome: fromBytes, path: "bytes" };
  const text = bytes.toString("utf8");
  const document = mayHoldInexactNumbers(text) ? parseJsonExact(text) : JSON.parse(text);
  return { outcome: runQuery(document, request, context), path: "parse" };
}

const samples = [];
const cpu = [];
let last;
for (let run = 0; run <= Number(runsText); run++) {
  collect();
  const start = performance.now();
  const startCpu = process.cpuUsage();
  last = coldPage();
  const usage = process.cpuUsage(startCpu);
  const elapsed = performance.now() - start;
  if (run > 0) {
    samples.push(elapsed);
    cpu.push((usage.user + usage.system) / 1000);
  }
}
const result = last.outcome.result;
process.stdout.write(
  `${JSON.stringify({
    samples,
    cpu,
    path: last.path,
    isError: last.outcome.isError,
    answer: {
      total: result.responseMeta?.totalCount,
      ids: (result.response ?? []).map((item) => item.id),
    },
  })}\n`,
);
