// What the lone-surrogate check costs a text payload that has none (SPEC.md §10). Bounding a text
// block searches its encoded bytes for U+FFFD (Buffer#indexOf, what startEncodingStorable does)
// and scans the text with String#isWellFormed only when one is found. Timed on a 50 MiB generated
// JSON text (a one-byte string in V8: ASCII) and the same text with one astral character appended
// (a two-byte string, as any payload with text beyond Latin-1 is), each against what bounding
// already does with the same text in the same process: Buffer.byteLength, and encodePayloadText
// (UTF-8 encode + sha256). isWellFormed alone is shown for comparison. Rounds interleave the
// systems; every timed run starts after a full GC; two warm-up rounds are dropped.
// Run: pnpm --filter @bounded-mcp/mcp-adapter exec node --expose-gc --import tsx bench/well-formed-check.ts [MiB] [rounds]
import { performance } from "node:perf_hooks";
import { formatMs, median, printTable, quantile } from "@bounded-mcp/bench-utils";
import { encodePayloadText } from "../src/bounding/encode-payload.js";
import { generatePayloadText } from "./generate-payload.js";

const mebibytes = Number(process.argv[2] ?? "50");
const rounds = Number(process.argv[3] ?? "15");
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

function timed(work: () => unknown): number {
  gc?.();
  const start = performance.now();
  work();
  return performance.now() - start;
}

const REPLACEMENT_CHARACTER = Buffer.from([0xef, 0xbf, 0xbd]);
const isWellFormed = (text: string) =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

const ascii = generatePayloadText(mebibytes * 1024 * 1024).text;
const texts = { "ASCII (one-byte)": ascii, "non-ASCII (two-byte)": `${ascii}😀` };
const spread = (values: number[]) =>
  `${median(values).toFixed(3)}x (p10 ${quantile(values, 0.1).toFixed(3)}, p90 ${quantile(values, 0.9).toFixed(3)})`;
const rows = [];
for (const [name, text] of Object.entries(texts)) {
  if (!isWellFormed(text)) throw new Error("the bench text must be well-formed");
  const bytes = Buffer.byteLength(text);
  const body = encodePayloadText(text, bytes).body;
  const samples = {
    search: [] as number[],
    scan: [] as number[],
    length: [] as number[],
    encode: [] as number[],
  };
  for (let round = 0; round < rounds + 2; round += 1) {
    const figures = {
      search: timed(() => body.indexOf(REPLACEMENT_CHARACTER)),
      scan: timed(() => isWellFormed(text)),
      length: timed(() => Buffer.byteLength(text)),
      encode: timed(() => encodePayloadText(text, bytes)),
    };
    if (round < 2) continue;
    for (const key of Object.keys(samples) as (keyof typeof samples)[]) {
      samples[key].push(figures[key]);
    }
  }
  const per = (values: number[], baseline: number[]) =>
    values.map((value, index) => value / (baseline[index] as number));
  rows.push({
    text: `${name}, ${(bytes / 1024 / 1024).toFixed(0)} MiB`,
    "U+FFFD search (the check)": formatMs(median(samples.search)),
    isWellFormed: formatMs(median(samples.scan)),
    "Buffer.byteLength": formatMs(median(samples.length)),
    "encode + sha256": formatMs(median(samples.encode)),
    "check / encode + sha256": spread(per(samples.search, samples.encode)),
    "isWellFormed / encode + sha256": spread(per(samples.scan, samples.encode)),
  });
}
printTable(
  `the lone-surrogate check on a text without any (medians of ${rounds} rounds; ratios per round, median and p10-p90)`,
  rows,
);
