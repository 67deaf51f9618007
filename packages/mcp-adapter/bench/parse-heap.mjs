#!/usr/bin/env node
// How much heap a parsed JSON document holds per byte of its text, for the shapes artifacts
// typically have: the calibration of the parse cache's heap estimate (mcp-adapter
// src/artifacts/parse-cache.ts). Run: node --expose-gc bench/parse-heap.mjs [MiB...]
// Each shape and size is measured in a fresh child process that holds only the text
// (v8.getHeapStatistics().used_heap_size after a full GC, before and after JSON.parse, the
// parsed value kept alive), three times; the table shows the median factor and its min-max,
// beside the parse cache's estimate (estimateHeapBytes; build mcp-adapter first).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import { estimateHeapBytes } from "../dist/artifacts/heap-estimate.js";

const SHAPES = {
  // An array of small records (ids, names, numbers, a short tag list, a note): API listings.
  "node array": (index) =>
    JSON.stringify({
      id: index,
      name: `item-${index}`,
      group: `g-${index % 16}`,
      score: (index * 7919) % 1000,
      ratio: ((index * 7919) % 1000) / 7,
      tags: [`t-${index % 5}`, `t-${index % 7}`],
      note: `row ${index} ${"lorem ipsum ".repeat(2 + (index % 6))}`,
    }),
  // Records without long strings: numbers and booleans dominate.
  "numeric rows": (index) =>
    JSON.stringify({ id: index, a: index % 97, b: (index * 31) / 7, c: index % 2 === 0, d: null }),
  // One object keyed by id (a map), small values.
  "keyed object": (index) => `"key-${index}":{"v":${index % 1000},"s":"x${index % 13}"}`,
  // Mostly text: file contents, log lines, descriptions.
  "strings heavy": (index) =>
    JSON.stringify(`line ${index}: ${"The quick brown fox jumps over the lazy dog. ".repeat(8)}`),
  // The soak's records (tooling/soak/upstream.mjs).
  "soak records": (index) =>
    JSON.stringify({
      id: `alice-1-${index}`,
      owner: "alice",
      status: ["active", "archived", "draft"][index % 3],
      score: index % 1000,
      tags: [`group-${index % 7}`, `batch-${index % 11}`],
      note: `Record ${index} of alice: ${"lorem ipsum ".repeat(1 + (index % 12))}`,
    }),
};

function buildText(shape, mebibytes) {
  const make = SHAPES[shape];
  const parts = [];
  let length = 0;
  for (let index = 0; length < mebibytes * 1024 * 1024; index += 1) {
    const part = make(index);
    parts.push(part);
    length += part.length + 1;
  }
  return shape === "keyed object" ? `{${parts.join(",")}}` : `[${parts.join(",")}]`;
}

if (process.argv[2] === "--child") {
  const [, , , shape, mebibytes] = process.argv;
  const text = buildText(shape, Number(mebibytes));
  globalThis.gc();
  globalThis.gc();
  const before = v8.getHeapStatistics().used_heap_size;
  const value = JSON.parse(text);
  globalThis.gc();
  globalThis.gc();
  const after = v8.getHeapStatistics().used_heap_size;
  const estimate = estimateHeapBytes(value);
  process.stdout.write(
    JSON.stringify({ bytes: Buffer.byteLength(text), heap: after - before, estimate }),
  );
  if (value === null) process.stdout.write(" ");
} else {
  const sizes = process.argv.slice(2).map(Number);
  const self = fileURLToPath(import.meta.url);
  const rows = [];
  for (const mebibytes of sizes.length ? sizes : [1, 10, 50]) {
    for (const shape of Object.keys(SHAPES)) {
      const factors = [];
      let estimated = 0;
      for (let run = 0; run < 3; run += 1) {
        const out = execFileSync(
          process.execPath,
          ["--expose-gc", self, "--child", shape, String(mebibytes)],
          { encoding: "utf8", maxBuffer: 1 << 20 },
        );
        const { bytes, heap, estimate } = JSON.parse(out);
        factors.push(heap / bytes);
        estimated = estimate / bytes;
      }
      factors.sort((a, b) => a - b);
      rows.push(
        `| ${shape} | ${mebibytes} MiB | ${factors[1].toFixed(2)}x | ${factors[0].toFixed(2)}-${factors[2].toFixed(2)} | ${estimated.toFixed(2)}x | ${(estimated / factors[1]).toFixed(2)} |`,
      );
    }
  }
  process.stdout.write(
    `| shape | text | heap / text bytes (median of 3) | min-max | estimateHeapBytes / text | estimate / heap |\n| --- | --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`,
  );
  process.stdout.write(
    `node ${process.version}, ${v8.getHeapStatistics().heap_size_limit} heap limit\n`,
  );
}
