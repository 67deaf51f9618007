// Reads a V8 .cpuprofile (node --cpu-prof) and prints where the self time went: by area (zod, the
// MCP SDK, the relay, the adapter, Node internals, GC, idle) and the top functions.
// Samples of the first `skipMs` (startup, module loading) are left out.
// Run: npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [skipMs]
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, skipArg] = process.argv.slice(2);
const skipMicros = 1000 * Number(skipArg ?? 0);
if (file === undefined) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);

const frameKey = (node: ProfileNode) =>
  `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/.*\/(node_modules|packages|apps)\//, "")}:${node.callFrame.lineNumber + 1}`;

/** The nearest caller of `node` outside zod: who asked for the parse. */
function zodCaller(node: ProfileNode): string {
  let current: ProfileNode | undefined = node;
  while (
    current !== undefined &&
    (current.callFrame.url.includes("/zod/") || current.callFrame.url === "")
  ) {
    const parent = parentOf.get(current.id);
    current = parent === undefined ? undefined : byId.get(parent);
  }
  return current === undefined ? "(root)" : frameKey(current);
}

function area(url: string, name: string): string {
  if (name === "(idle)" || name === "(program)" || name === "(garbage collector)") return name;
  if (url.includes("/zod/")) return "zod";
  if (url.includes("@modelcontextprotocol/sdk")) return "MCP SDK";
  if (url.includes("/relay/dist/") || url.includes("/relay/src/")) return "relay";
  if (url.includes("/mcp-adapter/dist/")) return "mcp-adapter";
  if (url.includes("/query-core/") || url.includes("/contract/")) return "query-core/contract";
  if (url.includes("/apps/proxy/")) return "proxy app";
  if (url.includes("pino") || url.includes("sonic-boom")) return "logger";
  if (url.startsWith("node:") || url === "") return "node internals / native";
  return url.replace(/.*node_modules\//, "");
}

const selfByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const zodByCaller = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let elapsed = 0;
for (let index = 0; index < profile.samples.length; index += 1) {
  const node = byId.get(profile.samples[index]!)!;
  const delta = profile.timeDeltas[index] ?? 0;
  elapsed += delta;
  if (elapsed < skipMicros) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || "(anonymous)";
  const where = area(url, name);
  selfByArea.set(where, (selfByArea.get(where) ?? 0) + delta);
  const seen = new Set<string>();
  for (let frame: ProfileNode | undefined = node; frame !== undefined; ) {
    const frameArea = area(frame.callFrame.url, frame.callFrame.functionName);
    const key = frameKey(frame);
    if (["relay", "mcp-adapter", "MCP SDK"].includes(frameArea) && !seen.has(key)) {
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + delta);
    }
    const parent = parentOf.get(frame.id);
    frame = parent === undefined ? undefined : byId.get(parent);
  }
  if (where === "zod" || (url === "" && name === "(anonymous)")) {
    const caller = zodCaller(node);
    zodByCaller.set(caller, (zodByCaller.get(caller) ?? 0) + delta);
  }
  const key = `${name} ${url.replace(/.*\/(node_modules|packages|apps)\//, "")}:${lineNumber + 1}`;
  selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + delta);
  total += delta;
}

const busy = total - (selfByArea.get("(idle)") ?? 0);
const print = (title: string, entries: Map<string, number>, top: number) => {
  console.log(`\n${title}`);
  for (const [key, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const share = key === "(idle)" ? "" : ` ${((100 * micros) / busy).toFixed(1)}% of busy`;
    console.log(`${(micros / 1000).toFixed(1).padStart(9)} ms${share.padEnd(16)} ${key}`);
  }
};
console.log(`total ${(total / 1000).toFixed(0)} ms, busy ${(busy / 1000).toFixed(0)} ms`);
print("self time by area", selfByArea, 20);
print("zod self time by its nearest caller outside zod", zodByCaller, 15);
print("self time by function", selfByFunction, Number(topArg ?? 40));
print("inclusive time of relay, adapter and SDK functions", inclusive, Number(topArg ?? 40));
