// Runs one phase of the benchmark several times so `node --cpu-prof` can attribute its time
// (diagnostics, not a benchmark). Phases: bound-memory, bound-fs, cold, warm.
// Usage: node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/profile-phase.ts <phase> <mebibytes> [runs]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createBoundedMcp } from "../dist/index.js";
import { filteredPageRequest, firstPageRequest, generatePayloadText } from "./generate-payload.js";

const MEBIBYTE = 1024 * 1024;
const phase = process.argv[2] ?? "warm";
const mebibytes = Number(process.argv[3] ?? "50");
const runs = Number(process.argv[4] ?? "5");
const { text } = generatePayloadText(mebibytes * MEBIBYTE);
const directory = mkdtempSync(join(tmpdir(), "bounded-mcp-profile-"));
const store: ArtifactStore =
  phase === "bound-memory"
    ? createMemoryStore({ maxBytes: 8 * 1024 * MEBIBYTE })
    : createFsStore({ dir: directory, quotaBytes: 8 * 1024 * MEBIBYTE, sweepIntervalMs: 0 });
const bounded = createBoundedMcp({
  keys: `bench:${"cd".repeat(32)}`,
  environment: {},
  artifactStore: store,
  artifactMaxBytes: 1024 * MEBIBYTE,
  parseCacheBytes: phase === "cold" ? 0 : 2 * text.length,
});
const result = (): CallToolResult => ({ content: [{ type: "text", text }] });
const first = await bounded.boundResult(result());
const artifactId = (first.structuredContent as { responseMeta: { artifact: { id: string } } })
  .responseMeta.artifact.id;
const request = phase === "warm" ? filteredPageRequest(artifactId) : firstPageRequest(artifactId);
const timings: number[] = [];
for (let run = 0; run < runs; run += 1) {
  (globalThis as { gc?: () => void }).gc?.();
  const start = performance.now();
  if (phase.startsWith("bound")) await bounded.boundResult(result());
  else await bounded.callQueryTool(request);
  timings.push(Math.round(performance.now() - start));
}
const parseStart = performance.now();
JSON.parse(text);
const parse = Math.round(performance.now() - parseStart);
await bounded.dispose();
rmSync(directory, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ phase, mebibytes, timings, parse })}\n`);
