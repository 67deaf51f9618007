// pnpm --filter @bounded-mcp/stores bench
// Runs against the built entries (pnpm build first; turbo's bench task does). put and get of 1 KiB, 1 MiB and 64 MiB bodies per store (memory, fs, s3 against a local
// s3rver, and fs and s3 wrapped in createEncryptedStore), as medians and as ratios to a plain fs.writeFile / fs.readFile of the same bytes
// measured in the same run.

import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as results from "@bounded-mcp/bench-utils";
import { formatMs, measure, printTable, summarize } from "@bounded-mcp/bench-utils";
import {
  type ArtifactMeta,
  type ArtifactStore,
  createAtRestKeys,
  createEncryptedStore,
  createMemoryStore,
} from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { createS3Store } from "@bounded-mcp/stores/s3";
import { s3rverStoreOptions, startTestS3Server } from "../test/support/s3rver.js";

const KIB = 1024;
const MIB = 1024 * KIB;
const SIZES = [
  { label: "1 KiB", bytes: KIB, runs: 50 },
  { label: "1 MiB", bytes: MIB, runs: 15 },
  { label: "64 MiB", bytes: 64 * MIB, runs: 5 },
];
const clock = () => 10_000;

function metaFor(body: Buffer): ArtifactMeta {
  return {
    id: `bench_${String(body.byteLength).padStart(16, "0")}`,
    scopeHash: "bench",
    mediaType: "application/json",
    byteLength: body.byteLength,
    sha256: createHash("sha256").update(body).digest("hex"),
    createdAt: 0,
    expiresAt: 1e12,
    responseRoot: "",
    primaryPaths: [],
    sourceTruncated: false,
    contractVersion: 3,
  };
}

const atRestKeys = createAtRestKeys([{ kid: "bench", key: randomBytes(32) }]);
const root = mkdtempSync(join(tmpdir(), "bounded-mcp-stores-bench-"));
const server = await startTestS3Server();
const stores: { name: string; store: ArtifactStore }[] = [
  { name: "memory", store: createMemoryStore({ clock, maxBytes: 512 * MIB }) },
  { name: "fs", store: createFsStore({ dir: join(root, "fs"), clock, sweepIntervalMs: 0 }) },
  {
    name: "fs (durable: true)",
    store: createFsStore({
      dir: join(root, "fs-durable"),
      clock,
      sweepIntervalMs: 0,
      durable: true,
    }),
  },
  {
    name: "s3 (s3rver)",
    store: createS3Store(s3rverStoreOptions(server, { prefix: "bench/", clock })),
  },
  {
    name: "fs, encrypted",
    store: createEncryptedStore({
      store: createFsStore({ dir: join(root, "fs-encrypted"), clock, sweepIntervalMs: 0 }),
      keys: atRestKeys,
    }),
  },
  {
    name: "s3 (s3rver), encrypted",
    store: createEncryptedStore({
      store: createS3Store(s3rverStoreOptions(server, { prefix: "bench-encrypted/", clock })),
      keys: atRestKeys,
    }),
  },
];

const median = async (fn: () => Promise<unknown>, runs: number) =>
  summarize(await measure(fn, { runs, warmup: 1 })).median;

const rows: Record<string, string>[] = [];
const figures: results.BenchFigure[] = [];
try {
  for (const size of SIZES) {
    const body = randomBytes(size.bytes);
    const baselinePath = join(root, `baseline-${size.bytes}`);
    for (const { name, store } of stores) {
      // The baseline is measured right before each store, so both see the same machine load.
      const writeFileMedian = await median(() => writeFile(baselinePath, body), size.runs);
      const readFileMedian = await median(() => readFile(baselinePath), size.runs);
      const meta = metaFor(body);
      const put = await median(() => store.put(meta, body), size.runs);
      const get = await median(async () => {
        if ((await store.get(meta.id)) === null) throw new Error(`${name} lost the artifact`);
      }, size.runs);
      await store.delete(meta.id);
      const writeBaseline = { name: "fs.writeFile", median: writeFileMedian };
      const readBaseline = { name: "fs.readFile", median: readFileMedian };
      figures.push(
        results.medianFigure(`${name}, ${size.label}: put`, put, {
          baseline: writeBaseline,
          n: size.runs,
        }),
        results.medianFigure(`${name}, ${size.label}: get`, get, {
          baseline: readBaseline,
          n: size.runs,
        }),
      );
      rows.push({
        store: name,
        size: size.label,
        "put median": formatMs(put),
        "fs.writeFile median": formatMs(writeFileMedian),
        "put ratio": (put / writeFileMedian).toFixed(2),
        "get median": formatMs(get),
        "fs.readFile median": formatMs(readFileMedian),
        "get ratio": (get / readFileMedian).toFixed(2),
      });
    }
  }
  printTable("stores: put and get, median of runs (ratio = store / plain fs call, same run)", rows);
  results.writeBenchResult("stores", "stores", {
    title: "put and get, medians (the baseline measured right before each store; no spread kept)",
    figures,
  });
} finally {
  await Promise.all(stores.map(({ store }) => store.dispose()));
  await server.destroy();
  rmSync(root, { recursive: true, force: true });
}
