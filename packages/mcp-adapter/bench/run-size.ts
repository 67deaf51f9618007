// The timings of one size of the bounding benchmark, in its own process (fresh heap), on a payload
// file written by bench/index.ts: medians of every figure, each timed run starting after a full
// garbage collection; parse, bounding and the cold queries are timed in interleaved rounds, and
// the garbage collection inside each timed window is summed (perf_hooks "gc" entries). Peak
// RSS is measured by bench/peak-rss.mjs. Prints one JSON line.
// Usage: node --expose-gc --max-old-space-size=12000 --import tsx bench/run-size.ts <file>
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { measure, summarize } from "@bounded-mcp/bench-utils";
import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type BoundedMcp, createBoundedMcp } from "../dist/index.js";
import { filteredPageRequest, firstPageRequest } from "./generate-payload.js";

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
    artifactMaxBytes: 1024 * MEBIBYTE,
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

/** Every garbage collection of this process: when it started and how long it paused, in ms. */
const collections: { startTime: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry);
}).observe({ entryTypes: ["gc"] });

/** The timed windows of each figure, to sum the collections that ran inside them. */
const windows = new Map<string, { start: number; end: number }[]>();

/**
 * Milliseconds one call of `work` takes, after a full garbage collection and the untimed `setup`;
 * the window is kept under `name` so gcMilliseconds can tell how much of it was collection.
 */
async function timeOnce<S>(
  name: string,
  setup: () => S | Promise<S>,
  work: (state: S) => unknown,
): Promise<number> {
  const state = await setup();
  collectGarbage();
  // Lets the collector's concurrent sweeping finish, so the timed call does not pay for it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  await work(state);
  const end = performance.now();
  windows.set(name, [...(windows.get(name) ?? []), { start, end }]);
  return end - start;
}

/** Median milliseconds of garbage collection inside the timed windows of `name`. */
function gcMilliseconds(name: string, skip: number): number {
  const perWindow = (windows.get(name) ?? [])
    .slice(skip)
    .map(({ start, end }) =>
      collections
        .filter((entry) => entry.startTime >= start && entry.startTime < end)
        .reduce((sum, entry) => sum + entry.duration, 0),
    );
  return summarize(perWindow).median;
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
  const firstPage = firstPageRequest(coldId);
  // Interleaved rounds (parse, bound with memory, bound with fs, cold query), so a change of the
  // machine's load during the run moves the baseline and the figures alike. Each bound starts
  // from a fresh adapter and store (made untimed), so its heap holds no earlier copy of the
  // document, like the JSON.parse baseline's.
  // The folder of the previous round's fs store is removed too (untimed): otherwise a run writes
  // while the kernel still flushes gigabytes of earlier rounds' files, which no single bound does.
  let previous: BoundedMcp | undefined;
  let previousFolder: string | undefined;
  const fresh = async (store: () => ArtifactStore) => {
    await previous?.dispose();
    if (previousFolder !== undefined) rmSync(previousFolder, { recursive: true, force: true });
    const folderCount = fsDirectories.length;
    previous = adapter(store());
    previousFolder = fsDirectories.length > folderCount ? fsDirectories.at(-1) : undefined;
    return previous;
  };
  const samples = {
    parse: [] as number[],
    boundMemory: [] as number[],
    boundFs: [] as number[],
    coldQuery: [] as number[],
    coldFiltered: [] as number[],
  };
  for (let round = 0; round < warmup + runs; round += 1) {
    const parse = await timeOnce(
      "parse",
      () => undefined,
      () => JSON.parse(text),
    );
    const boundMemory = await timeOnce(
      "boundMemory",
      () => fresh(memoryStore),
      (bounded) => bounded.boundResult(result()),
    );
    const boundFs = await timeOnce(
      "boundFs",
      () => fresh(fsStore),
      (bounded) => bounded.boundResult(result()),
    );
    await previous?.dispose();
    previous = undefined;
    const coldQuery = await timeOnce(
      "coldQuery",
      () => undefined,
      () => cold.callQueryTool(firstPage),
    );
    // A filtered first query cannot be answered from the bytes: it parses the whole document.
    const coldFiltered = await timeOnce(
      "coldFiltered",
      () => undefined,
      () => cold.callQueryTool(filteredPageRequest(coldId)),
    );
    if (round < warmup) continue;
    samples.parse.push(parse);
    samples.boundMemory.push(boundMemory);
    samples.boundFs.push(boundFs);
    samples.coldQuery.push(coldQuery);
    samples.coldFiltered.push(coldFiltered);
  }
  await cold.dispose();
  collectGarbage();

  // Warm filtered and projected page: the parsed artifact is in the parse cache.
  const warm = adapter(fsStore(), 2 * payloadBytes);
  const warmId = artifactIdOf(await warm.boundResult(result()));
  const warmFiltered = filteredPageRequest(warmId);
  const check = await warm.callQueryTool(warmFiltered);
  if (check.isError === true) throw new Error(JSON.stringify(check.structuredContent));
  const setup = async () => {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const warmQuery = summarize(
    await measure(() => warm.callQueryTool(warmFiltered), { runs: 9, warmup: 2, setup }),
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
    coldFiltered: summarize(samples.coldFiltered).median,
    warmQuery,
    gc: {
      parse: gcMilliseconds("parse", warmup),
      boundMemory: gcMilliseconds("boundMemory", warmup),
      boundFs: gcMilliseconds("boundFs", warmup),
    },
    ratios: {
      boundMemory: ratioOf(samples.boundMemory),
      boundFs: ratioOf(samples.boundFs),
      coldQuery: ratioOf(samples.coldQuery),
      coldFiltered: ratioOf(samples.coldFiltered),
      warmQuery: warmQuery / parse,
    },
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

const text = readFileSync(file, "utf8");
await timing(text);
