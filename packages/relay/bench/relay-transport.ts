// Benchmark: one 50 MiB tool result through the relay's linear stdio client transport, against
// two baselines measured in the same run: JSON.parse of the JSON-RPC line that carries it, and
// JSON.parse of the tool result's text inside it (the payload); and the SDK's StdioClientTransport
// with its maxBufferSize raised. Each variant runs in its own process so peak RSS is its own; the
// ratios pair each run with both parses in that process (same machine load).
// Run from packages/relay: npx tsx bench/relay-transport.ts [mebibytes] [--only a,b]
// (--only runs the named variants, e.g. --only json-parse,linear; sdk-raised alone takes minutes.)
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as results from "@bounded-mcp/bench-utils";
import {
  formatBytes,
  formatMs,
  measure,
  printTable,
  summarize,
  withPeakRss,
} from "@bounded-mcp/bench-utils";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createLineFramer } from "../src/line-framer.js";
import { createLinearStdioClientTransport } from "../src/linear-stdio-client-transport.js";
import { createPayloadText } from "../src/test-support/payload.mjs";

const MEBIBYTE = 1024 * 1024;
/** What a pipe read returns at most on Linux. */
const CHUNK_BYTES = 64 * 1024;
const RAW_SERVER = fileURLToPath(
  new URL("../src/test-support/raw-line-server.mjs", import.meta.url),
);
const SDK_SERVER = fileURLToPath(
  new URL("../src/test-support/fixture-server.mjs", import.meta.url),
);

type Variant =
  | "json-parse"
  | "json-parse-payload"
  | "pipe-floor"
  | "framing-only"
  | "framing-only-cold"
  | "linear"
  | "linear-cold"
  | "linear-sdk-server"
  | "sdk-raised";

interface VariantReport {
  /** The variant timed alone. */
  samples: number[];
  peakRss: number;
  rssBefore: number;
  /** The variant and JSON.parse of the same line, timed alternately in the same process. */
  pairedSamples: number[];
  baselineSamples: number[];
  /** JSON.parse of the tool result's text (the payload inside the line), in the same pairs. */
  payloadSamples: number[];
}

const VARIANTS: { variant: Variant; label: string }[] = [
  { variant: "json-parse", label: "JSON.parse of the same line (baseline)" },
  { variant: "json-parse-payload", label: "JSON.parse of the payload text inside it" },
  {
    variant: "pipe-floor",
    label: "floor: the raw child's line through a pipe (bytes counted only), then JSON.parse",
  },
  {
    variant: "framing-only",
    label: "linear framing + decode + parse, in process (64 KiB chunks, no pipe), buffer kept",
  },
  {
    variant: "framing-only-cold",
    label: "the same, no buffer kept (retainedBufferBytes 0: the line grows a buffer of its own)",
  },
  { variant: "linear", label: "linear stdio transport (raw child)" },
  {
    variant: "linear-cold",
    label: "linear stdio transport (raw child), no buffer kept",
  },
  {
    variant: "linear-sdk-server",
    label: "linear stdio transport (SDK McpServer child, end to end)",
  },
  { variant: "sdk-raised", label: "SDK StdioClientTransport, maxBufferSize raised (raw child)" },
];

function responseLine(mebibytes: number): string {
  const result = { content: [{ type: "text", text: createPayloadText(mebibytes) }] };
  return JSON.stringify({ result, jsonrpc: "2.0", id: 1 });
}

function transportFor(variant: Variant, mebibytes: number): Transport {
  const args = [String(mebibytes)];
  if (variant === "sdk-raised") {
    return new StdioClientTransport({
      command: process.execPath,
      args: [RAW_SERVER, ...args],
      maxBufferSize: 2 * mebibytes * MEBIBYTE,
    });
  }
  const server = variant === "linear-sdk-server" ? [SDK_SERVER] : [RAW_SERVER, ...args];
  return createLinearStdioClientTransport({
    command: process.execPath,
    args: server,
    ...(variant === "linear-cold" ? { retainedBufferBytes: 0 } : {}),
  });
}

/** The operation a variant times once per run, with its setup and teardown. */
interface VariantRunner {
  run: () => unknown;
  runs: number;
  close: () => Promise<void>;
}

/**
 * What any stdio transport pays at least: the line crosses the pipe (Node's 64 KiB reads, bytes
 * only counted, never framed or decoded), then JSON.parse of the same line, prepared beforehand.
 */
async function createPipeFloorRunner(mebibytes: number): Promise<VariantRunner> {
  const line = responseLine(mebibytes);
  const child = spawn(process.execPath, [RAW_SERVER, String(mebibytes)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let lineEnded: () => void = () => {};
  child.stdout.on("data", (chunk: Buffer) => {
    if (chunk[chunk.length - 1] === 0x0a) lineEnded();
  });
  let id = 0;
  const request = async (method: string) => {
    const ended = new Promise<void>((resolve) => {
      lineEnded = resolve;
    });
    id += 1;
    const params = { protocolVersion: "2025-06-18" };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    await ended;
  };
  await request("initialize");
  const run = async () => {
    await request("tools/call");
    return JSON.parse(line);
  };
  const close = async () => {
    child.kill();
  };
  return { run, runs: 7, close };
}

async function createRunner(variant: Variant, mebibytes: number): Promise<VariantRunner> {
  if (variant === "pipe-floor") return createPipeFloorRunner(mebibytes);
  if (variant === "json-parse" || variant === "json-parse-payload") {
    const line = variant === "json-parse" ? responseLine(mebibytes) : createPayloadText(mebibytes);
    return { run: () => JSON.parse(line), runs: 7, close: async () => {} };
  }
  if (variant === "framing-only" || variant === "framing-only-cold") {
    const line = Buffer.from(`${responseLine(mebibytes)}\n`);
    const chunks: Buffer[] = [];
    for (let offset = 0; offset < line.length; offset += CHUNK_BYTES) {
      chunks.push(line.subarray(offset, offset + CHUNK_BYTES));
    }
    let parsed: unknown;
    // One framer for all runs, configured like the transport's stdout framer (the warm-up run
    // leaves the kept buffer behind, as a previous large result would).
    const framer = createLineFramer({
      maxLineBytes: 2 * line.length,
      retainedBufferBytes: variant === "framing-only" ? 2 * line.length : 0,
      onLine: (text) => {
        parsed = JSON.parse(text);
      },
      onOversizedLine: () => {
        throw new Error("unexpected oversized line");
      },
    });
    const run = () => {
      parsed = undefined;
      for (const chunk of chunks) framer.push(chunk);
      if (parsed === undefined) throw new Error("framing-only: no message");
    };
    return { run, runs: 7, close: async () => {} };
  }
  const client = new Client({ name: "relay-transport-bench", version: "1.0.0" });
  await client.connect(transportFor(variant, mebibytes));
  const run = async () => {
    const result = await client.callTool({ name: "payload", arguments: { mebibytes } });
    const block = (result as { content: { text: string }[] }).content[0];
    if (block === undefined || block.text.length < mebibytes * MEBIBYTE) {
      throw new Error(`${variant}: the result did not arrive whole`);
    }
  };
  return { run, runs: variant === "sdk-raised" ? 2 : 7, close: () => client.close() };
}

/**
 * Times the variant alone (peak RSS is its own), then again in pairs with JSON.parse of the same
 * line in the same process, so the ratio compares runs made under the same machine load.
 */
async function runVariant(variant: Variant, mebibytes: number): Promise<VariantReport> {
  const runner = await createRunner(variant, mebibytes);
  const warmup = variant === "sdk-raised" ? 0 : 1;
  const alone = await withPeakRss(() => measure(runner.run, { runs: runner.runs, warmup }));
  const line = responseLine(mebibytes);
  const payload = createPayloadText(mebibytes);
  const pairedSamples: number[] = [];
  const baselineSamples: number[] = [];
  const payloadSamples: number[] = [];
  for (let pair = 0; pair < runner.runs; pair += 1) {
    baselineSamples.push(...(await measure(() => JSON.parse(line), { runs: 1, warmup: 0 })));
    payloadSamples.push(...(await measure(() => JSON.parse(payload), { runs: 1, warmup: 0 })));
    pairedSamples.push(...(await measure(runner.run, { runs: 1, warmup: 0 })));
  }
  await runner.close();
  return {
    samples: alone.result,
    peakRss: alone.peakRss,
    rssBefore: alone.rssBefore,
    pairedSamples,
    baselineSamples,
    payloadSamples,
  };
}

function runInChild(variant: Variant, mebibytes: number): Promise<VariantReport> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    [...process.execArgv, script, "--variant", variant, String(mebibytes)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`variant ${variant} exited with code ${code}`));
        return;
      }
      resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as VariantReport);
    });
  });
}

async function main(): Promise<void> {
  const variantIndex = process.argv.indexOf("--variant");
  if (variantIndex !== -1) {
    const variant = process.argv[variantIndex + 1] as Variant;
    const mebibytes = Number(process.argv[variantIndex + 2]);
    process.stdout.write(JSON.stringify(await runVariant(variant, mebibytes)));
    return;
  }
  const mebibytes = Number(process.argv[2] ?? "50");
  const onlyIndex = process.argv.indexOf("--only");
  const only = onlyIndex === -1 ? undefined : new Set(process.argv[onlyIndex + 1]?.split(","));
  const selected = VARIANTS.filter(({ variant }) => only === undefined || only.has(variant));
  const reports = new Map<Variant, VariantReport>();
  for (const { variant } of selected) {
    reports.set(variant, await runInChild(variant, mebibytes));
  }
  printTable(
    `relay transport: one ${mebibytes} MiB tool result (${formatBytes(Buffer.byteLength(responseLine(mebibytes)))} line)`,
    selected.map(({ variant, label }) => {
      const report = reports.get(variant)!;
      const alone = summarize(report.samples);
      const paired = summarize(report.pairedSamples).median;
      const baseline = summarize(report.baselineSamples).median;
      const payloadParse = summarize(report.payloadSamples).median;
      return {
        variant: label,
        runs: alone.runs,
        median: formatMs(alone.median),
        "JSON.parse of the line (paired)": formatMs(baseline),
        "ratio to it": `${(paired / baseline).toFixed(2)}x`,
        "JSON.parse of the result's text (paired)": formatMs(payloadParse),
        "ratio to it ": `${(paired / payloadParse).toFixed(2)}x`,
        "peak RSS": formatBytes(report.peakRss),
        "RSS before": formatBytes(report.rssBefore),
      };
    }),
  );
  writeTransportPart(mebibytes, selected, reports);
}

await main();

/** BENCHMARKS.md (tooling/bench-report): each variant against JSON.parse of the line, paired. */
function writeTransportPart(
  mebibytes: number,
  selected: { variant: Variant; label: string }[],
  reports: Map<Variant, VariantReport>,
) {
  const figures: results.BenchFigure[] = [];
  for (const { variant, label } of selected) {
    const report = reports.get(variant);
    if (report === undefined) continue;
    const baseline = {
      name: "JSON.parse of the line, paired",
      median: summarize(report.baselineSamples).median,
    };
    figures.push(
      results.figureOf(label, report.pairedSamples, { baseline }),
      results.medianFigure(`${label}: peak RSS`, report.peakRss, { unit: "B" }),
    );
  }
  results.writeBenchResult("relay", "transport", {
    title: `One ${mebibytes} MiB tool result through the stdio client transport (each variant in its own process)`,
    figures,
  });
}
