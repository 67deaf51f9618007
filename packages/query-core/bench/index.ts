// pnpm --filter @bounded-mcp/query-core bench
// Every figure is a median, and for a document also a ratio to JSON.parse of that same document
// measured in the same run. The query cases run when the engine exports runQuery.
import { createHmac } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { formatBytes, formatMs, measure, printTable, summarize } from "@bounded-mcp/bench-utils";
import {
  type ArtifactRef,
  DEFAULT_LIMITS,
  type Limits,
  parseQueryRequest,
  type QueryRequest,
} from "@bounded-mcp/contract";
import * as core from "../src/index.js";
import { benchColdFiltered } from "./cold.js";
import { generateDocuments } from "./generate-nodes.js";

type RunQuery = (
  document: unknown,
  request: QueryRequest,
  context: {
    scopeHash: string;
    keyRing: core.KeyRing;
    responseRoot: string;
    sourceTruncated: boolean;
    limits: Limits;
  },
) => { result: unknown; isError: boolean };

const MIB = 1024 * 1024;
setFlagsFromString("--expose-gc");
/** A full collection between untimed setup and a timed run, so no run pays for setup's garbage. */
const collectGarbage = runInNewContext("gc") as () => void;
// BENCH_SIZES=50 BENCH_SHAPES=array runs only those documents (while iterating on one case).
const SIZES = (process.env.BENCH_SIZES ?? "1,10,50").split(",").map(Number);
const SHAPES = (process.env.BENCH_SHAPES ?? "array,keyed").split(",");
const ARTIFACT_ID = "bench_artifact_0000000000";
const keyRing = core.createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]);
const runQuery = (core as Record<string, unknown>)["runQuery"] as RunQuery | undefined;

function request(input: Record<string, unknown>): QueryRequest {
  const parsed = parseQueryRequest({ artifactId: ARTIFACT_ID, ...input });
  if (!parsed.success) throw new Error(`bench request rejected: ${parsed.error.message}`);
  return parsed.data;
}

const QUERIES: Record<"array" | "keyed", Record<string, QueryRequest>> = {
  array: {
    "first page": request({}),
    "filtered + projected page": request({
      filters: [
        { path: "/type", value: "n8n-nodes-base.httpRequest" },
        { path: "/disabled", value: false },
      ],
      fields: ["id", "name", "/parameters/url"],
    }),
    describe: request({ describe: true }),
    textSearch: request({ textSearch: { query: "req-777" } }),
  },
  keyed: {
    "first page": request({}),
    "filtered + projected page": request({
      objectMode: "entries",
      filters: [
        { path: "/value/type", value: "n8n-nodes-base.httpRequest" },
        { path: "/value/disabled", value: false },
      ],
      fields: ["key", "/value/id", "/value/parameters/url"],
    }),
    describe: request({ describe: true }),
    textSearch: request({ textSearch: { query: "req-777" } }),
  },
};

/** The §9 cases, run on the array of nodes with tags. */
const EXTENSION_QUERIES: Record<string, QueryRequest> = {
  "sort by a number, top page of 20": request({
    sort: [{ path: "/typeVersion", order: "desc" }, { path: "/position/0" }],
  }),
  "groupBy a string, count": request({ aggregate: { groupBy: "/type" } }),
  "groupBy with unwind over an array of strings": request({
    aggregate: { groupBy: "/tags", unwind: true },
  }),
  "anyOf of two icontains filters": request({
    filters: [
      {
        anyOf: [
          { path: "/name", op: "icontains", value: "node 77" },
          { path: "/parameters/url", op: "icontains", value: "resource/42" },
        ],
      },
    ],
  }),
};

/** The second page of a sorted view: the first page's cursor sent back. */
function nextPageOf(query: QueryRequest, context: Parameters<RunQuery>[2], document: unknown) {
  const first = runQuery?.(document, query, context).result as {
    responseMeta?: { nextCursor?: string | null };
  };
  const cursor = first?.responseMeta?.nextCursor;
  if (typeof cursor !== "string") throw new Error("the sorted first page has no cursor");
  return { ...query, cursor };
}

async function benchExtensions(label: string, text: string) {
  const parseMedian = summarize(
    await measure(() => JSON.parse(text), { runs: 7, warmup: 1 }),
  ).median;
  const document: unknown = JSON.parse(text);
  const rows: Record<string, unknown>[] = [];
  const add = (operation: string, median: number, note = "") => {
    rows.push({
      document: label,
      operation,
      median: formatMs(median),
      "÷ JSON.parse": `${((median / parseMedian) * 100).toFixed(2)}%`,
      note,
    });
  };
  add("JSON.parse (baseline)", parseMedian, formatBytes(Buffer.byteLength(text)));
  if (runQuery === undefined) return rows;
  const context = {
    scopeHash: "bench-scope",
    keyRing,
    responseRoot: "",
    sourceTruncated: false,
    limits: { ...DEFAULT_LIMITS },
  };
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 250));
  const sortFirst = EXTENSION_QUERIES["sort by a number, top page of 20"] as QueryRequest;
  const cases: [string, QueryRequest][] = [
    ...Object.entries(EXTENSION_QUERIES),
    ["sort by a number, next page (cursor)", nextPageOf(sortFirst, context, document)],
  ];
  for (const [operation, query] of cases) {
    const outcome = runQuery(document, query, context);
    const samples = await measure(() => runQuery(document, query, context), { runs: 11 });
    const note = outcome.isError
      ? "ERROR result"
      : `${formatBytes(JSON.stringify(outcome.result).length)} out`;
    add(operation, summarize(samples).median, note);
  }
  return rows;
}

function artifactFor(byteLength: number, document: unknown): ArtifactRef {
  return {
    id: ARTIFACT_ID,
    mediaType: "application/json",
    byteLength,
    sha256: "0".repeat(64),
    expiresAt: "2026-01-01T00:00:00.000Z",
    queryTool: "query_response_artifact",
    ...core.analyzeDocument(document),
  };
}

async function benchDocument(label: string, shape: "array" | "keyed", text: string) {
  const parseSamples = await measure(() => JSON.parse(text), { runs: 7, warmup: 1 });
  const parseMedian = summarize(parseSamples).median;
  const document: unknown = JSON.parse(text);
  const rows: Record<string, unknown>[] = [];
  const add = (operation: string, median: number, note = "") => {
    rows.push({
      document: label,
      operation,
      median: formatMs(median),
      "÷ JSON.parse": `${((median / parseMedian) * 100).toFixed(2)}%`,
      note,
    });
  };
  add("JSON.parse (baseline)", parseMedian, formatBytes(Buffer.byteLength(text)));
  const analysis = core.analyzeDocument(document);
  const context = {
    scopeHash: "bench-scope",
    keyRing,
    responseRoot: analysis.responseRoot,
    sourceTruncated: analysis.sourceTruncated,
    limits: { ...DEFAULT_LIMITS },
  };
  if (runQuery !== undefined) {
    // The parses above leave hundreds of MiB of garbage: collect it, and let the sweeper finish,
    // before timing queries, so no query run pays for the baseline's garbage.
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (const [operation, query] of Object.entries(QUERIES[shape])) {
      const outcome = runQuery(document, query, context);
      const samples = await measure(() => runQuery(document, query, context), { runs: 11 });
      const note = outcome.isError
        ? "ERROR result"
        : `${formatBytes(JSON.stringify(outcome.result).length)} out`;
      add(operation, summarize(samples).median, note);
    }
    // The first page of an artifact not parsed yet, answered from its UTF-8 bytes.
    const bytes = Buffer.from(text);
    const firstPage = QUERIES[shape]["first page"] as QueryRequest;
    const fromBytes = core.runPartialQuery(bytes, firstPage, context);
    const samples = await measure(() => core.runPartialQuery(bytes, firstPage, context), {
      runs: 7,
    });
    const expected = JSON.stringify(runQuery(document, firstPage, context).result);
    const note =
      fromBytes === undefined
        ? "declined: the caller parses instead"
        : JSON.stringify(fromBytes.result) === expected
          ? "equals runQuery's first page"
          : "DIFFERS from runQuery's first page";
    add("first page from the bytes (runPartialQuery)", summarize(samples).median, note);
  }
  // A freshly parsed copy for every timed run (parsed untimed in setup), so the key lists that
  // analyzeDocument remembers for large objects never make a run look cheaper than a first call.
  const fresh = {
    runs: 7,
    warmup: 1,
    setup: () => {
      const copy: unknown = JSON.parse(text);
      collectGarbage();
      return copy;
    },
  };
  const analyzeSamples = await measure((copy) => core.analyzeDocument(copy), fresh);
  add(
    "analyzeDocument",
    summarize(analyzeSamples).median,
    `primaryPaths ${JSON.stringify(analysis.primaryPaths)}`,
  );
  const byteLength = Buffer.byteLength(text);
  const envelopeOf = (copy: unknown) =>
    core.createBoundedEnvelope({
      document: copy,
      artifact: artifactFor(byteLength, copy),
      success: true,
      previewBytes: DEFAULT_LIMITS.previewBytes,
    });
  const previewSamples = await measure(envelopeOf, fresh);
  add(
    "preview (analyze + envelope)",
    summarize(previewSamples).median,
    `envelope ${Buffer.byteLength(JSON.stringify(envelopeOf(document)))} B`,
  );
  return rows;
}

async function benchCursors() {
  const claims = { artifactId: ARTIFACT_ID, scopeHash: "bench-scope", viewHash: "v".repeat(64) };
  const cursor = core.encodeCursor(keyRing, { ...claims, offset: 12_345 });
  const loops = 10_000;
  const secret = Buffer.alloc(32, 7);
  const hmac = await measure(() => {
    for (let index = 0; index < loops; index++) {
      createHmac("sha256", secret).update(`${claims.viewHash}${index}`).digest();
    }
  });
  const encode = await measure(() => {
    for (let index = 0; index < loops; index++)
      core.encodeCursor(keyRing, { ...claims, offset: index });
  });
  const decode = await measure(() => {
    for (let index = 0; index < loops; index++) core.decodeCursor(keyRing, cursor, claims);
  });
  const perOperation = (samples: number[]) => summarize(samples).median / loops;
  const baseline = perOperation(hmac);
  const rows = [
    ["one HMAC-SHA256 (baseline)", baseline],
    ["encodeCursor", perOperation(encode)],
    ["decodeCursor", perOperation(decode)],
  ] as const;
  printTable(
    `Cursors (${cursor.length} characters; per operation, median of ${loops} in a loop)`,
    rows.map(([operation, median]) => ({
      operation,
      median: formatMs(median),
      "÷ HMAC": `${(median / baseline).toFixed(2)}×`,
    })),
  );
}

/** Runs every measured operation on a small document first, so no table pays for the JIT. */
function warmUp() {
  const { arrayText, keyedText } = generateDocuments(256 * 1024);
  const tagged: unknown = JSON.parse(generateDocuments(256 * 1024, { tags: true }).arrayText);
  for (const [shape, text] of [
    ["array", arrayText],
    ["keyed", keyedText],
  ] as const) {
    for (let round = 0; round < 20; round++) {
      const document: unknown = JSON.parse(text);
      const analysis = core.analyzeDocument(document);
      core.createBoundedEnvelope({
        document,
        artifact: artifactFor(text.length, document),
        success: true,
        previewBytes: DEFAULT_LIMITS.previewBytes,
      });
      if (runQuery === undefined) continue;
      const context = {
        scopeHash: "bench-scope",
        keyRing,
        responseRoot: analysis.responseRoot,
        sourceTruncated: analysis.sourceTruncated,
        limits: { ...DEFAULT_LIMITS },
      };
      for (const query of Object.values(QUERIES[shape])) runQuery(document, query, context);
      if (shape === "array") {
        for (const query of Object.values(EXTENSION_QUERIES)) runQuery(tagged, query, context);
      }
    }
  }
}

async function main() {
  process.stdout.write(
    `query-core benchmark, Node ${process.version}; query cases ${runQuery === undefined ? "SKIPPED (runQuery is not exported yet)" : "included"}\n`,
  );
  warmUp();
  await benchCursors();
  for (const size of SIZES) {
    const { arrayText, keyedText } = generateDocuments(size * MIB);
    const rows = [
      ...(SHAPES.includes("array")
        ? await benchDocument(`${size} MiB array`, "array", arrayText)
        : []),
      ...(SHAPES.includes("keyed")
        ? await benchDocument(`${size} MiB keyed`, "keyed", keyedText)
        : []),
    ];
    printTable(`${size} MiB documents`, rows);
    if (process.env.BENCH_EXTENSIONS !== "0") {
      const tagged = generateDocuments(size * MIB, { tags: true }).arrayText;
      printTable(
        `${size} MiB array with tags: §9 sort and aggregate`,
        await benchExtensions(`${size} MiB array + tags`, tagged),
      );
    }
  }
  // The cold filtered page (bench/cold.ts): byte scan, parse + query and DuckDB, on a file.
  if (process.env.BENCH_COLD !== "0") {
    const size = Math.max(...SIZES);
    await benchColdFiltered(size, Number(process.env.BENCH_COLD_ROUNDS ?? "5"));
  }
}

await main();
