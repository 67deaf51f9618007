// One size of the bounding benchmark, in its own process (fresh heap, its own peak RSS), on a
// payload file written by bench/index.ts. Mode "peak": peak RSS while bounding once, from a
// process that holds only the payload text. Mode "timing": medians of every figure, each timed
// run starting after a full garbage collection. Prints one JSON line.
// Usage: node --expose-gc --max-old-space-size=12000 --import tsx bench/run-size.ts <file> <mode>
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
const mode = process.argv[3] === "peak" ? "peak" : "timing";

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** VmHWM (peak RSS) and VmRSS of this process, in bytes (Linux). */
function memoryStatus(): { peak: number; current: number } {
  const status = readFileSync("/proc/self/status", "utf8");
  const kib = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kib("VmHWM"), current: kib("VmRSS") };
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

async function peak(text: string): Promise<void> {
  const result: CallToolResult = { content: [{ type: "text", text }] };
  collectGarbage();
  const rssBefore = memoryStatus().current;
  writeFileSync("/proc/self/clear_refs", "5");
  const bounded = adapter(memoryStore());
  await bounded.boundResult(result);
  const peakRss = memoryStatus().peak;
  await bounded.dispose();
  process.stdout.write(`${JSON.stringify({ rssBefore, peakRss })}\n`);
}

async function timing(text: string): Promise<void> {
  const payloadBytes = Buffer.byteLength(text);
  const mebibytes = payloadBytes / MEBIBYTE;
  const runs = mebibytes >= 200 ? 3 : mebibytes >= 50 ? 5 : 9;
  const warmup = mebibytes >= 200 ? 1 : 2;
  const result = (): CallToolResult => ({ content: [{ type: "text", text }] });
  const setup = () => collectGarbage();

  const parse = summarize(await measure(() => JSON.parse(text), { runs, warmup, setup })).median;
  collectGarbage();

  const boundWith = async (store: () => ArtifactStore) => {
    const bounded = adapter(store());
    const samples = await measure(() => bounded.boundResult(result()), { runs, warmup, setup });
    await bounded.dispose();
    collectGarbage();
    return summarize(samples).median;
  };
  const boundMemory = await boundWith(memoryStore);
  const boundFs = await boundWith(fsStore);

  // Cold first query: fs store, parse cache disabled, so every query reads and parses the file.
  const cold = adapter(fsStore(), 0);
  const coldId = artifactIdOf(await cold.boundResult(result()));
  collectGarbage();
  const firstPage = { artifactId: coldId, responsePath: "/data/items", pageSize: 20 };
  const coldQuery = summarize(
    await measure(() => cold.callQueryTool(firstPage), { runs, warmup: 0, setup }),
  ).median;
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
  const warmQuery = summarize(
    await measure(() => warm.callQueryTool(filtered), { runs: 5, warmup: 1, setup }),
  ).median;
  await warm.dispose();

  for (const dir of fsDirectories) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({ payloadBytes, parse, boundMemory, boundFs, coldQuery, warmQuery })}\n`,
  );
}

const text = readFileSync(file, "utf8");
await (mode === "peak" ? peak(text) : timing(text));
