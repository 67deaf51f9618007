// The timings of one size of the bounding benchmark, in its own process (fresh heap), on a payload
// file written by bench/index.ts: medians of every figure, each timed run starting after a full
// garbage collection; parse, bounding and the cold query are timed in interleaved rounds. Peak
// RSS is measured by bench/peak-rss.mjs. Prints one JSON line.
// Usage: node --expose-gc --max-old-space-size=12000 --import tsx bench/run-size.ts <file>
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measure, summarize } from "@bounded-mcp/bench-utils";
import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type BoundedMcp, createBoundedMcp } from "../dist/index.js";

const MEBIBYTE = 1024 * 1024;
const KEYS = `bench:${"cd".repeat(32)}`;
const file = process.argv[2] ?? "";

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function adapter(artifactStore: ArtifactStore, parseCacheBytes?: number): BoundedMcp {
  return createBoundedMcp({
    keys: KEYS,
    environment: {},
    artifactStore,
    limits: { artifactMaxBytes: 1024 * MEBIBYTE },
    ...(parseCacheBytes === undefined ? {} : { parseCacheBytes }),
  });
}

const fsDirectories: string[] = [];
function fsStore(): ArtifactStore {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-bench-"));
  fsDirectories.push(dir);
  return createFsStore({ dir, quotaBytes: 8 * 1024 * MEBIBYTE, sweepIntervalMs: 0 });
}

function memoryStore(): ArtifactStore {
  return createMemoryStore({ maxBytes: 8 * 1024 * MEBIBYTE });
}

function artifactIdOf(result: CallToolResult): string {
  return (result.structuredContent as { responseMeta: { artifact: { id: string } } }).responseMeta
    .artifact.id;
}

/** Milliseconds one call of `work` takes, after a full garbage collection and the untimed `setup`. */
async function timeOnce<S>(
  setup: () => S | Promise<S>,
  work: (state: S) => unknown,
): Promise<number> {
  const state = await setup();
  collectGarbage();
  // Lets the collector's concurrent sweeping finish, so the timed call does not pay for it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  await work(state);
  return performance.now() - start;
}

async function timing(text: string): Promise<void> {
  const payloadBytes = Buffer.byteLength(text);
  const mebibytes = payloadBytes / MEBIBYTE;
  const runs = mebibytes >= 200 ? 5 : mebibytes >= 50 ? 7 : 11;
  const warmup = mebibytes >= 200 ? 1 : 2;
  const result = (): CallToolResult => ({ content: [{ type: "text", text }] });

  // Cold first query: fs store, parse cache disabled, so every query reads and parses the file.
  const cold = adapter(fsStore(), 0);
  const coldId = artifactIdOf(await cold.boundResult(result()));
  const firstPage = { artifactId: coldId, responsePath: "/data/items", pageSize: 20 };

  // Interleaved rounds (parse, bound with memory, bound with fs, cold query), so a change of the
  // machine's load during the run moves the baseline and the figures alike. Each bound starts
  // from a fresh adapter and store (made untimed), so its heap holds no earlier copy of the
  // document, like the JSON.parse baseline's.
  let previous: BoundedMcp | undefined;
  const fresh = async (store: () => ArtifactStore) => {
    await previous?.dispose();
    previous = adapter(store());
    return previous;
  };
  const samples = {
    parse: [] as number[],
    boundMemory: [] as number[],
    boundFs: [] as number[],
    coldQuery: [] as number[],
  };
  for (let round = 0; round < warmup + runs; round += 1) {
    const parse = await timeOnce(
      () => undefined,
      () => JSON.parse(text),
    );
    const boundMemory = await timeOnce(
      () => fresh(memoryStore),
      (bounded) => bounded.boundResult(result()),
    );
    const boundFs = await timeOnce(
      () => fresh(fsStore),
      (bounded) => bounded.boundResult(result()),
    );
    await previous?.dispose();
    previous = undefined;
    const coldQuery = await timeOnce(
      () => undefined,
      () => cold.callQueryTool(firstPage),
    );
    if (round < warmup) continue;
    samples.parse.push(parse);
    samples.boundMemory.push(boundMemory);
    samples.boundFs.push(boundFs);
    samples.coldQuery.push(coldQuery);
  }
  await cold.dispose();
  collectGarbage();

  // Warm filtered and projected page: the parsed artifact is in the parse cache.
  const warm = adapter(fsStore(), 2 * payloadBytes);
  const warmId = artifactIdOf(await warm.boundResult(result()));
  const filtered = {
    artifactId: warmId,
    responsePath: "/data/items",
    filters: [
      { path: "/status", value: "draft" },
      { path: "/score", op: "gte", value: 500 },
    ],
    fields: ["id", "name", "score"],
    pageSize: 20,
  };
  const check = await warm.callQueryTool(filtered);
  if (check.isError === true) throw new Error(JSON.stringify(check.structuredContent));
  const setup = async () => {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const warmQuery = summarize(
    await measure(() => warm.callQueryTool(filtered), { runs: 9, warmup: 2, setup }),
  ).median;
  await warm.dispose();

  for (const dir of fsDirectories) rmSync(dir, { recursive: true, force: true });
  const parse = summarize(samples.parse).median;
  // The ratio of a figure is the median of its per-round ratios to that round's JSON.parse.
  const ratioOf = (values: number[]) =>
    summarize(values.map((value, index) => value / (samples.parse[index] ?? Number.NaN))).median;
  const figures = {
    payloadBytes,
    parse,
    boundMemory: summarize(samples.boundMemory).median,
    boundFs: summarize(samples.boundFs).median,
    coldQuery: summarize(samples.coldQuery).median,
    warmQuery,
    ratios: {
      boundMemory: ratioOf(samples.boundMemory),
      boundFs: ratioOf(samples.boundFs),
      coldQuery: ratioOf(samples.coldQuery),
      warmQuery: warmQuery / parse,
    },
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const text = readFileSync(file, "utf8");
await timing(text);
