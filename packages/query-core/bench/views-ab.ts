// VIEWS_AB_BASE=/path/to/other/query-core/dist/index.js npx tsx bench/views-ab.ts
// An interleaved A/B of later pages in one process: another build of query-core (A, e.g. main's
// dist copied aside) against this checkout's dist (B, after `pnpm build`), on bench:views' two
// filtered views of the 50 MiB node array. Per round and engine (the order alternates): the
// bench:views protocol (a full collection, a first page without a cache timed 3 times, an
// untimed fill, then every page by nextCursor with a fresh cache, CPU time), and the steady
// state (every later page of the view again with the cache that paging filled: µs CPU a page).
// Every page's text (pageText, else a serialization) of A and B is compared and must be equal.
// VIEWS_AB_ROUNDS (default 9) rounds after one warm-up round; medians with min – max.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { median } from "@bounded-mcp/bench-utils";
import { DEFAULT_LIMITS, parseQueryRequest, type QueryRequest } from "@bounded-mcp/contract";
import { generateDocuments } from "./generate-nodes.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
type Engine = typeof import("../src/index.js");
const basePath = process.env["VIEWS_AB_BASE"];
if (basePath === undefined) throw new Error("set VIEWS_AB_BASE to another build's dist/index.js");
const engines: Record<"A" | "B", Engine> = {
  A: (await import(basePath)) as Engine,
  B: (await import("../dist/index.js" as string)) as Engine,
};
const ROUNDS = Number(process.env["VIEWS_AB_ROUNDS"] ?? "9");

function request(input: Record<string, unknown>): QueryRequest {
  const parsed = parseQueryRequest({ artifactId: "bench_artifact_0000000000", ...input });
  if (!parsed.success) throw new Error(parsed.error.message);
  return parsed.data;
}
const fields = ["id", "name", "/parameters/url"];
const views: Record<string, QueryRequest> = {
  "7,413-match view": request({
    filters: [
      { path: "/type", value: "n8n-nodes-base.httpRequest" },
      { path: "/parameters/options/timeout", op: "lt", value: 47_061 },
    ],
    fields,
  }),
  "12,595-match view": request({
    filters: [
      { path: "/type", value: "n8n-nodes-base.httpRequest" },
      { path: "/disabled", value: false },
    ],
    fields,
  }),
};
const nodes: unknown = JSON.parse(generateDocuments(50 * 1024 * 1024).arrayText);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function ask(engine: Engine, query: QueryRequest, context: Parameters<Engine["runQuery"]>[2]) {
  const outcome = engine.runQuery(nodes, query, context);
  if (outcome.isError) throw new Error(JSON.stringify(outcome.result).slice(0, 300));
  const result = outcome.result as { responseMeta: { nextCursor: string | null } };
  const kept = engine.pageText(outcome.result);
  const text = kept !== undefined && kept.count === 0 ? kept.text : JSON.stringify(result);
  return { next: result.responseMeta.nextCursor, text };
}

const samples = new Map<string, number[]>();
const record = (name: string, value: number) => {
  const list = samples.get(name) ?? [];
  list.push(value);
  samples.set(name, list);
};
const texts = new Map<string, string[]>();

for (let round = -1; round < ROUNDS; round += 1) {
  const order: Array<"A" | "B"> = round % 2 === 0 ? ["A", "B"] : ["B", "A"];
  for (const name of order) {
    const engine = engines[name];
    const base = {
      scopeHash: "bench-scope",
      keyRing: engine.createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
      responseRoot: "",
      sourceTruncated: false,
      limits: { ...DEFAULT_LIMITS },
    };
    for (const [label, view] of Object.entries(views)) {
      collectGarbage();
      ask(engine, view, base);
      for (let run = 0; run < 3; run += 1) {
        const started = process.cpuUsage();
        ask(engine, view, base);
        if (round >= 0) record(`${label} ${name}: first page, no cache (ms)`, cpuMs(started));
      }
      collectGarbage();
      ask(engine, view, base);
      ask(engine, view, { ...base, viewCache: engine.createViewCache() });
      const context = { ...base, viewCache: engine.createViewCache() };
      const pageTexts: string[] = [];
      let next: string | null = null;
      const started = process.cpuUsage();
      do {
        const page = ask(engine, next === null ? view : { ...view, cursor: next }, context);
        pageTexts.push(page.text);
        next = page.next;
      } while (next !== null);
      const all = cpuMs(started);
      // The steady state: the later pages again, the cache filled, the code warm.
      next = ask(engine, view, context).next;
      const steady = process.cpuUsage();
      let later = 0;
      while (next !== null) {
        next = ask(engine, { ...view, cursor: next }, context).next;
        later += 1;
      }
      const steadyMs = cpuMs(steady);
      const key = `${label} ${name}`;
      const seen = texts.get(key);
      if (seen === undefined) texts.set(key, pageTexts);
      else if (seen.some((text, at) => text !== pageTexts[at])) throw new Error(`${key} varies`);
      if (round < 0) continue;
      record(`${label} ${name}: every page by nextCursor, fresh cache (ms)`, all);
      record(`${label} ${name}: steady later page (µs)`, (steadyMs * 1000) / later);
    }
  }
  process.stderr.write(`${round < 0 ? "warm-up round" : `round ${round + 1}/${ROUNDS}`} done\n`);
}
for (const label of Object.keys(views)) {
  const a = texts.get(`${label} A`) ?? [];
  const b = texts.get(`${label} B`) ?? [];
  const same = a.length === b.length && a.every((text, at) => text === b[at]);
  process.stdout.write(
    `${label}: A and B page texts ${same ? "identical" : "DIFFER"} (${a.length} pages)\n`,
  );
  if (!same) process.exitCode = 1;
}
for (const [name, values] of [...samples].sort(([x], [y]) => (x < y ? -1 : 1))) {
  process.stdout.write(
    `${name}: ${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)} – ${Math.max(...values).toFixed(2)}), n ${values.length}\n`,
  );
}
for (const label of Object.keys(views)) {
  for (const name of ["A", "B"]) {
    const first = median(samples.get(`${label} ${name}: first page, no cache (ms)`) ?? []);
    const all = median(
      samples.get(`${label} ${name}: every page by nextCursor, fresh cache (ms)`) ?? [],
    );
    process.stdout.write(`${label} ${name}: all pages ÷ first page ${(all / first).toFixed(3)}x\n`);
  }
}
