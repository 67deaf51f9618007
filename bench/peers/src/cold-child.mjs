// The engine's cold filtered page, timed in a process that holds nothing but what the page needs
// (V8's parse cost depends on the heap around it, so the bench's own heap, which holds the parsed
// document for the warm rows, must not be the one measured). Each run starts from the file:
// read the bytes, answer from the bytes (runPartialQuery) when the engine can, else parse (exact
// numbers checked as the adapter does) and runQuery. Plain JavaScript on the built packages.
// With a fourth argument "background", each run also does what the adapter does once a page was
// answered from the bytes: parse the document for later queries on the next turn of the event
// loop (setImmediate); `samples`/`cpu` still end at the answer, `throughParse`/`throughParseCpu`
// at the end of that parse.
// Usage: node --expose-gc src/cold-child.mjs <file> <request JSON> <runs> [background]
// Prints one JSON line: {"samples": [wall ms], "cpu": [CPU ms], "path": "bytes" | "parse", "answer"}
// (and "throughParse", "throughParseCpu" with "background").
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

const [file = "", requestText = "{}", runsText = "3", mode = ""] = process.argv.slice(2);
const background = mode === "background";
const request = JSON.parse(requestText);
const context = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};
const collect = globalThis.gc ?? (() => {});

function parseWhole(bytes) {
  const text = bytes.toString("utf8");
  return mayHoldInexactNumbers(text) ? parseJsonExact(text) : JSON.parse(text);
}

function coldPage() {
  const bytes = readFileSync(file);
  const fromBytes = runPartialQuery(bytes, request, context);
  if (fromBytes !== undefined) return { outcome: fromBytes, path: "bytes", bytes };
  return { outcome: runQuery(parseWhole(bytes), request, context), path: "parse" };
}

/** The background parse of bytes a page was answered from, as the adapter schedules it. */
const parsedLater = (bytes) =>
  new Promise((resolve) => setImmediate(() => resolve(parseWhole(bytes))));

const samples = [];
const cpu = [];
const throughParse = [];
const throughParseCpu = [];
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
  if (background && last.bytes !== undefined) {
    await parsedLater(last.bytes);
    const total = process.cpuUsage(startCpu);
    if (run > 0) {
      throughParse.push(performance.now() - start);
      throughParseCpu.push((total.user + total.system) / 1000);
    }
  }
  last.bytes = undefined;
}
const result = last.outcome.result;
process.stdout.write(
  `${JSON.stringify({
    samples,
    cpu,
    ...(background ? { throughParse, throughParseCpu } : {}),
    path: last.path,
    isError: last.outcome.isError,
    answer: {
      total: result.responseMeta?.totalCount,
      ids: (result.response ?? []).map((item) => item.id),
    },
  })}\n`,
);
