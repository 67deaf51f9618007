// pnpm --filter @bounded-mcp/mcp-adapter exec tsx bench/at-rest.ts (after the build)
// What encryption at rest and a redaction hook cost inside bounding: one oversized result bound
// with the fs store, the fs store wrapped in createEncryptedStore, and the fs store with a
// redaction hook that changes the text (so its result is parsed again); then the cold first page
// (parse cache off) from the plain and the encrypted store. Interleaved rounds (every system once
// per round, so a change of the machine's load moves all alike), a fresh adapter and folder per
// timed call, a full garbage collection before each; medians, min-max, and the ratio to the plain
// fs store of the same round. Usage: node --expose-gc --import tsx bench/at-rest.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatMs, printTable, summarize } from "@bounded-mcp/bench-utils";
import { type ArtifactStore, createAtRestKeys, createEncryptedStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type BoundedMcp, createBoundedMcp, type RedactHook } from "../dist/index.js";
import { firstPageRequest, generatePayloadText } from "./generate-payload.js";

const MEBIBYTE = 1024 * 1024;
const KEYS = `bench:${"cd".repeat(32)}`;
const keys = createAtRestKeys([{ kid: "bench", key: Buffer.alloc(32, 7) }]);
const redact: RedactHook = (text) => text.replaceAll("Owner 1", "Owner X");
const folders: string[] = [];

function fsStore(): ArtifactStore {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-at-rest-bench-"));
  folders.push(dir);
  return createFsStore({ dir, quotaBytes: 8 * 1024 * MEBIBYTE, sweepIntervalMs: 0 });
}

const systems = {
  fs: () => ({ artifactStore: fsStore() }),
  "fs, encrypted": () => ({ artifactStore: createEncryptedStore({ store: fsStore(), keys }) }),
  "fs + redact hook": () => ({ artifactStore: fsStore(), redact }),
};

function adapter(options: object, parseCacheBytes?: number): BoundedMcp {
  return createBoundedMcp({
    keys: KEYS,
    environment: {},
    artifactMaxBytes: 1024 * MEBIBYTE,
    ...(parseCacheBytes === undefined ? {} : { parseCacheBytes }),
    ...options,
  });
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const idOf = (result: CallToolResult) =>
  (result.structuredContent as { responseMeta: { artifact: { id: string } } }).responseMeta.artifact
    .id;

const rows: Record<string, string>[] = [];
for (const mebibytes of [1, 16, 50]) {
  const { text } = generatePayloadText(mebibytes * MEBIBYTE);
  const result = (): CallToolResult => ({ content: [{ type: "text", text }] });
  const runs = mebibytes >= 50 ? 7 : 11;
  const samples = new Map<string, number[]>();
  const record = (name: string, value: number) =>
    samples.set(name, [...(samples.get(name) ?? []), value]);
  // Cold pages: one artifact per store, queried with the parse cache off.
  const coldPlain = adapter(systems.fs(), 0);
  const coldEncrypted = adapter(systems["fs, encrypted"](), 0);
  const plainPage = firstPageRequest(idOf(await coldPlain.boundResult(result())));
  const encryptedPage = firstPageRequest(idOf(await coldEncrypted.boundResult(result())));
  for (let round = 0; round < runs + 2; round += 1) {
    const round_: [string, number][] = [];
    for (const [name, make] of Object.entries(systems)) {
      const bounded = adapter(make());
      round_.push([`bound, ${name}`, await timed(() => bounded.boundResult(result()))]);
      await bounded.dispose();
    }
    round_.push(["cold page, fs", await timed(() => coldPlain.callQueryTool(plainPage))]);
    round_.push([
      "cold page, fs, encrypted",
      await timed(() => coldEncrypted.callQueryTool(encryptedPage)),
    ]);
    if (round >= 2) for (const [name, value] of round_) record(name, value);
  }
  await coldPlain.dispose();
  await coldEncrypted.dispose();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  const baselineOf = (name: string) => (name.startsWith("cold") ? "cold page, fs" : "bound, fs");
  for (const [name, values] of samples) {
    const baseline = samples.get(baselineOf(name)) ?? [];
    const ratios = values.map((value, index) => value / (baseline[index] ?? Number.NaN));
    const summary = summarize(values);
    const ratio = summarize(ratios);
    rows.push({
      payload: `${mebibytes} MiB`,
      system: name,
      median: formatMs(summary.median),
      "min-max": `${formatMs(summary.min)}-${formatMs(summary.max)}`,
      "ratio to plain fs (median, min-max)": `${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`,
    });
  }
}
printTable("bounding with encryption at rest and a redaction hook (interleaved rounds)", rows);
