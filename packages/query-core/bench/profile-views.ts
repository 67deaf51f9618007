// tsx bench/profile-views.ts (or node --cpu-prof --import tsx bench/profile-views.ts)
// CPU per cached page: the filtered + projected view of bench:views (7,413 matches with
// PROFILE_VIEWS_MIB=50; the default 10 MiB gives 5,059) paged by nextCursor with one cache, repeated;
// prints µs per cached page (CPU, the first page excluded). Read the profile for what a later
// page pays beyond its own items: buildPage, encodeCursor, computeViewHash, planCollection.
// PROFILE_VIEWS_DIST=1 profiles the built code (dist/, after `pnpm build`) instead of src/ through
// tsx, whose transform wraps every function made per call (keepNames) and measured about 7%
// slower per page.
import { DEFAULT_LIMITS, parseQueryRequest } from "@bounded-mcp/contract";
import type { QueryContext } from "../src/index.js";
import { generateDocuments } from "./generate-nodes.js";

const engine = (
  process.env["PROFILE_VIEWS_DIST"] === "1"
    ? await import("../dist/index.js" as string)
    : await import("../src/index.js")
) as typeof import("../src/index.js");
const { createKeyRing, createViewCache, pageText, runQuery } = engine;

const MIB = 1024 * 1024;
const SIZE_MIB = Number(process.env["PROFILE_VIEWS_MIB"] ?? "10");
const PASSES = Number(process.env["PROFILE_VIEWS_PASSES"] ?? "40");
const context: QueryContext = {
  scopeHash: "bench-scope",
  keyRing: createKeyRing([{ kid: "bench", secret: Buffer.alloc(32, 7) }]),
  responseRoot: "",
  sourceTruncated: false,
  limits: { ...DEFAULT_LIMITS },
  viewCache: createViewCache(),
};
const parsed = parseQueryRequest({
  artifactId: "bench_artifact_0000000000",
  filters: [
    { path: "/type", value: "n8n-nodes-base.httpRequest" },
    { path: "/parameters/options/timeout", op: "lt", value: 47_061 },
  ],
  fields: ["id", "name", "/parameters/url"],
});
if (!parsed.success) throw new Error(parsed.error.message);
const filtered = parsed.data;
const nodes: unknown = JSON.parse(generateDocuments(SIZE_MIB * MIB).arrayText);
let pages = 0;
let cpu = 0;
for (let pass = 0; pass < PASSES; pass += 1) {
  let outcome = runQuery(nodes, filtered, context);
  let next = (outcome.result as { responseMeta: { nextCursor: string | null } }).responseMeta
    .nextCursor;
  const start = process.cpuUsage();
  while (next !== null) {
    outcome = runQuery(nodes, { ...filtered, cursor: next }, context);
    // What the adapter sends: the text buildPage kept, else a serialization.
    if (pageText(outcome.result) === undefined) JSON.stringify(outcome.result);
    next = (outcome.result as { responseMeta: { nextCursor: string | null } }).responseMeta
      .nextCursor;
    pages += 1;
  }
  const used = process.cpuUsage(start);
  cpu += used.user + used.system;
}
process.stdout.write(`${pages} cached pages: ${(cpu / pages).toFixed(1)} µs CPU each\n`);
