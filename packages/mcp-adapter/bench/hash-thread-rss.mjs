// What the hashing thread keeps alive: RSS of one process after bounding `count` payloads of
// `mebibytes` each (hashed off-thread, since they are over 64 KiB), with the fs store (a body is
// on disk once put, so nothing of the adapter should hold it) and no parse cache, after a full
// garbage collection of the main thread. Each payload is the same text with another marker, so
// every bound makes its own shared body and its own artifact. The process holds the payload text,
// one bounding at a time, and what the hashing thread keeps: an RSS that grows with `count` is
// bodies the thread still references. Plain JavaScript (no TypeScript loader thread in the RSS).
// Prints a Markdown table and one JSON line.
// Usage: pnpm --filter @bounded-mcp/mcp-adapter build && node --expose-gc bench/hash-thread-rss.mjs [count] [mebibytes]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { createBoundedMcp } from "../dist/index.js";

const MEBIBYTE = 1024 * 1024;
const count = Number(process.argv[2] ?? 20);
const mebibytes = Number(process.argv[3] ?? 32);

/** VmRSS of this process in bytes (Linux). */
function rss() {
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Two full collections with a pause between, so concurrent sweeping and frees are done. */
async function settle() {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
  globalThis.gc?.();
}

const record = JSON.stringify({ id: "item-00000000", name: "Item", tags: ["a", "b"], score: 1 });
const items = Array.from(
  { length: Math.ceil((mebibytes * MEBIBYTE) / (record.length + 1)) },
  () => record,
);
const body = items.join(",");
const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-hash-rss-"));
const bounded = createBoundedMcp({
  keys: `bench:${"cd".repeat(32)}`,
  environment: {},
  artifactStore: createFsStore({ dir, quotaBytes: 64 * 1024 * MEBIBYTE, sweepIntervalMs: 0 }),
  limits: { artifactMaxBytes: 1024 * MEBIBYTE },
  parseCacheBytes: 0,
});
try {
  // One bound first, untimed, so the hashing thread and the adapter's code are loaded.
  await bounded.boundResult({ content: [{ type: "text", text: `{"n":-1,"items":[${body}]}` }] });
  await settle();
  const rssBefore = rss();
  for (let index = 0; index < count; index += 1) {
    const text = `{"n":${index},"items":[${body}]}`;
    await bounded.boundResult({ content: [{ type: "text", text }] });
  }
  await settle();
  const rssAfter = rss();
  const figures = {
    count,
    payloadBytes: body.length,
    rssBefore,
    rssAfter,
    retainedPayloads: (rssAfter - rssBefore) / body.length,
  };
  const mib = (bytes) => `${(bytes / MEBIBYTE).toFixed(1)} MiB`;
  process.stdout.write(
    `| bounds | payload | RSS before | RSS after | growth in payloads |\n| --- | --- | --- | --- | --- |\n| ${count} | ${mib(body.length)} | ${mib(rssBefore)} | ${mib(rssAfter)} | ${figures.retainedPayloads.toFixed(2)} |\n`,
  );
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await bounded.dispose();
  rmSync(dir, { recursive: true, force: true });
}
