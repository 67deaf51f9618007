// Times each step of bounding one generated JSON text result (diagnostics for the benchmark).
// Usage: node --expose-gc --import tsx bench/profile-steps.ts <mebibytes>
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { analyzeDocument, createBoundedEnvelope } from "@bounded-mcp/query-core";
import { createMemoryStore } from "@bounded-mcp/stores";
import { generatePayloadText } from "./generate-payload.js";

const mebibytes = Number(process.argv[2] ?? "50");
const { text } = generatePayloadText(mebibytes * 1024 * 1024);
const timings: Record<string, number> = {};
async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = performance.now();
  const value = await work();
  timings[name] = Math.round(performance.now() - start);
  return value;
}
await step("JSON.parse (warm-up)", () => JSON.parse(text));
const document = await step("JSON.parse", () => JSON.parse(text));
await step("Buffer.byteLength", () => Buffer.byteLength(text));
const body = await step("Buffer.from", () => Buffer.from(text, "utf8"));
const sha256 = await step("sha256", () => createHash("sha256").update(body).digest("hex"));
const analysis = await step("analyzeDocument", () => analyzeDocument(document));
await step("createBoundedEnvelope", () =>
  createBoundedEnvelope({
    document,
    success: true,
    previewBytes: 8192,
    artifact: {
      id: "x".repeat(24),
      mediaType: "application/json",
      byteLength: body.byteLength,
      sha256,
      expiresAt: new Date(0).toISOString(),
      queryTool: "query_response_artifact",
      responseRoot: analysis.responseRoot,
      primaryPaths: analysis.primaryPaths,
      sourceTruncated: analysis.sourceTruncated,
    },
  }),
);
const store = createMemoryStore({ maxBytes: 4 * 1024 ** 3 });
await step("memory store put", () =>
  store.put(
    {
      id: "y".repeat(24),
      scopeHash: "s",
      mediaType: "application/json",
      byteLength: body.byteLength,
      sha256,
      createdAt: 0,
      expiresAt: Date.now() + 60_000,
      responseRoot: "",
      primaryPaths: [],
      sourceTruncated: false,
      contractVersion: 3,
    },
    body,
  ),
);
process.stdout.write(`${JSON.stringify(timings)}\n`);
