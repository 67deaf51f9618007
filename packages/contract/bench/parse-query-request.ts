// npx tsx bench/parse-query-request.ts (in packages/contract)
// What the query handler pays per call to validate the arguments (mcp-adapter's query handler
// calls parseQueryRequest on every tools/call): a later page of the filtered + projected view of
// the views benches (2 filters, 3 fields, a cursor), its arguments parsed from their JSON text
// per call as a transport hands them over. The schema path (zod, then structuredClone) against
// parseQueryRequest, which checks this shape by hand; interleaved per round, CPU time of the
// process (user + system) per call, medians and spread over the rounds.
// BENCH_PARSE_ROUNDS=5 BENCH_PARSE_CALLS=2000 for a quick look.
import { parseQueryRequest } from "../src/index.js";
import { parseQueryRequestBySchema } from "../src/parse-query-request.js";

const ROUNDS = Number(process.env["BENCH_PARSE_ROUNDS"] ?? "15");
const CALLS = Number(process.env["BENCH_PARSE_CALLS"] ?? "20000");
const text = JSON.stringify({
  artifactId: "bench_artifact_0000000000",
  filters: [
    { path: "/type", value: "n8n-nodes-base.httpRequest" },
    { path: "/parameters/options/timeout", op: "lt", value: 47_061 },
  ],
  fields: ["id", "name", "/parameters/url"],
  cursor: "AQViZW5jaCgf1oIygsDeM4dKUWVXNveA",
});
const inputs = Array.from({ length: CALLS }, () => JSON.parse(text) as unknown);
const ways = {
  "schema path (zod + structuredClone), baseline": parseQueryRequestBySchema,
  parseQueryRequest: parseQueryRequest,
};
const expected = JSON.stringify(parseQueryRequestBySchema(inputs[0]));
for (const parse of Object.values(ways)) {
  if (JSON.stringify(parse(inputs[0])) !== expected) throw new Error("the outcomes differ");
}

const samples = new Map<string, number[]>();
const names = Object.keys(ways) as (keyof typeof ways)[];
for (let round = -1; round < ROUNDS; round += 1) {
  const order = round % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    const parse = ways[name];
    const start = process.cpuUsage();
    for (const input of inputs) parse(input);
    const used = process.cpuUsage(start);
    if (round < 0) continue;
    const list = samples.get(name) ?? [];
    list.push((used.user + used.system) / CALLS);
    samples.set(name, list);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const baseline = median(samples.get(names[0] as string) ?? []);
process.stdout.write(
  `parseQueryRequest per call, later-page arguments (Node ${process.version}; ${ROUNDS} rounds of ${CALLS} calls; CPU µs per call)\n`,
);
for (const name of names) {
  const values = samples.get(name) ?? [];
  process.stdout.write(
    `${name}: median ${median(values).toFixed(2)} µs (${Math.min(...values).toFixed(2)} – ${Math.max(...values).toFixed(2)}), ${(median(values) / baseline).toFixed(3)}x of the baseline\n`,
  );
}
