// pnpm --filter @bounded-mcp/peers-bench bench:later-pages (also a step of the root `pnpm bench`)
// What a later page of a remembered view costs beyond the page's own cost. The filtered +
// projected view of the generated node array (2 filters, 3 fields); per round a fresh view cache,
// page 1 fills it, then every later page is fetched by nextCursor, each timed alone, and beside
// it the page's own cost: serializing that page's items (JSON.stringify of the `response` the
// engine returned), the work no cache can save. The overhead of a later page is its time minus
// its own cost. CPU time of the process (µs resolution), medians over every later page of every
// round. Writes the part views.later-pages for BENCHMARKS.md.
// BENCH_LATER_MIB=10 BENCH_LATER_ROUNDS=1 for a quick look.
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  figureOf,
  formatMs,
  printTable,
  targetOf,
  writeBenchResult,
} from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import { createKeyRing, createViewCache, runQuery } from "@bounded-mcp/query-core";
import { generateDocuments } from "../../../packages/query-core/bench/generate-nodes.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const SIZE_MIB = Number(process.env["BENCH_LATER_MIB"] ?? "50");
const ROUNDS = Number(process.env["BENCH_LATER_ROUNDS"] ?? "3");
const parsed = parseQueryRequest({
  artifactId: "bench_artifact_0000000000",
  filters: [
    { path: "/type", value: "n8n-nodes-base.httpRequest" },
    { path: "/disabled", value: false },
  ],
  fields: ["id", "name", "/parameters/url"],
});
if (!parsed.success) throw new Error(parsed.error.message);
const request: QueryRequest = parsed.data;
const base = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
};

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

interface Page {
  response: unknown[];
  responseMeta: { nextCursor: string | null };
}

const document: unknown = JSON.parse(generateDocuments(SIZE_MIB * 1024 * 1024).arrayText);
const first: number[] = [];
const later: number[] = [];
const own: number[] = [];
const overhead: number[] = [];
let pages = 0;
for (let round = -1; round < ROUNDS; round++) {
  collectGarbage();
  const context = { ...base, viewCache: createViewCache() };
  let start = cpuMs();
  const outcome = runQuery(document, request, context);
  if (outcome.isError) throw new Error(JSON.stringify(outcome.result).slice(0, 300));
  if (round >= 0) first.push(cpuMs() - start);
  let next = (outcome.result as Page).responseMeta.nextCursor;
  let count = 1;
  while (next !== null) {
    start = cpuMs();
    const page = runQuery(document, { ...request, cursor: next }, context).result as Page;
    const pageMs = cpuMs() - start;
    const ownStart = cpuMs();
    JSON.stringify(page.response);
    const ownMs = cpuMs() - ownStart;
    if (round >= 0) {
      later.push(pageMs);
      own.push(ownMs);
      overhead.push(pageMs - ownMs);
    }
    next = page.responseMeta.nextCursor;
    count++;
  }
  pages = count;
  process.stderr.write(
    `${round < 0 ? "warm-up round" : `round ${round + 1}/${ROUNDS}`} done (${performance.now().toFixed(0)} ms)\n`,
  );
}

const firstPage = figureOf("page 1, filling a fresh view cache (baseline)", first);
const laterPage = figureOf("a later page by nextCursor, cached", later, { baseline: firstPage });
const ownCost = figureOf("the page's own cost (serializing its items)", own, {
  baseline: firstPage,
});
const beyond = figureOf("a later page beyond its own cost", overhead);
writeBenchResult("views", "later-pages", {
  title: `Later pages of the filtered view on the ${SIZE_MIB} MiB node array (${pages} pages; CPU ms, ${ROUNDS} rounds)`,
  figures: [firstPage, laterPage, ownCost, beyond],
  targets: [
    targetOf(
      "later-pages",
      "a later page ≤ 0.1 ms plus the page's own cost (median of later page − own cost)",
      beyond.median,
      "<=",
      0.1,
      "ms",
    ),
  ],
  notes: [
    `Every later page of every round timed alone (${later.length} pages): CPU time of the process at µs resolution; the own cost is JSON.stringify of the page's items right after the page.`,
  ],
});
printTable(
  `later pages of the filtered view (${pages} pages, ${ROUNDS} rounds; CPU)`,
  [firstPage, laterPage, ownCost, beyond].map((figure) => ({
    what: figure.name,
    median: formatMs(figure.median),
    "min – max": `${formatMs(figure.low ?? Number.NaN)} – ${formatMs(figure.high ?? Number.NaN)}`,
    n: figure.n,
  })),
);
