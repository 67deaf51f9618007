// What keeping the upstream's structuredContent bytes costs (SPEC.md §10): when a relayed result
// is bounded, structuredContentText slices result.structuredContent out of its JSON-RPC line with
// one linear scan. Timed on a 50 MiB line, paired per round with JSON.parse of the same line (what
// the transport does to every message anyway), in this process which holds only the line: once
// with a small text block before structuredContent, once with the text block mirroring it (the
// scan then skips a 50 MiB string first). Every timed run starts after a full GC; two warm-up
// rounds are dropped. A result that passes inline is never scanned.
// Run from packages/relay: node --expose-gc --import tsx bench/structured-content-scan.ts [MiB] [rounds]
import { performance } from "node:perf_hooks";
import { formatMs, median, printTable, quantile } from "@bounded-mcp/bench-utils";
import { structuredContentText } from "../src/structured-content-span.js";
import { createPayloadText } from "../src/test-support/payload.mjs";

const mebibytes = Number(process.argv[2] ?? "50");
const rounds = Number(process.argv[3] ?? "11");
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

function timed(work: () => unknown): number {
  gc?.();
  const start = performance.now();
  work();
  return performance.now() - start;
}

const payload = createPayloadText(mebibytes);
const lines = {
  "small text block": `{"result":{"content":[{"type":"text","text":"done"}],"structuredContent":${payload}},"jsonrpc":"2.0","id":7}`,
  "text block mirroring it": `{"result":{"content":[{"type":"text","text":${JSON.stringify(payload)}}],"structuredContent":${payload}},"jsonrpc":"2.0","id":7}`,
};
const rows = [];
for (const [name, line] of Object.entries(lines)) {
  if (structuredContentText(line) !== payload) throw new Error("the scan did not find the payload");
  const scan: number[] = [];
  const parse: number[] = [];
  for (let round = 0; round < rounds + 2; round += 1) {
    const scanned = timed(() => structuredContentText(line));
    const parsed = timed(() => JSON.parse(line));
    if (round < 2) continue;
    scan.push(scanned);
    parse.push(parsed);
  }
  const ratios = scan.map((value, index) => value / (parse[index] as number));
  rows.push({
    line: `${name}, ${(Buffer.byteLength(line) / 1024 / 1024).toFixed(0)} MiB`,
    "JSON.parse (baseline)": formatMs(median(parse)),
    structuredContentText: formatMs(median(scan)),
    "scan / parse": `${median(ratios).toFixed(3)}x (p10 ${quantile(ratios, 0.1).toFixed(3)}, p90 ${quantile(ratios, 0.9).toFixed(3)})`,
  });
}
printTable(
  `slicing structuredContent from its line (medians of ${rounds} rounds; ratios per round)`,
  rows,
);
