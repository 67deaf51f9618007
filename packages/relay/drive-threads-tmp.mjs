import { readFileSync, readdirSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const stat = (p) => { const f = readFileSync(p, "utf8"); const name = f.slice(f.indexOf("(") + 1, f.lastIndexOf(")")); const x = f.slice(f.lastIndexOf(")") + 2).split(" "); return [name, (Number(x[11]) + Number(x[12])) * 10]; };
const threads = (pid) => Object.fromEntries(readdirSync(`/proc/${pid}/task`).map((t) => { const [n, c] = stat(`/proc/${pid}/task/${t}/stat`); return [`${t}:${n}`, c]; }));
const up = ["src/test-support/fixture-server.mjs"];
const args = process.argv[2] === "json" ? ["bench/fixtures/json-relay.mjs", process.execPath, ...up] : ["../../apps/proxy/dist/cli.js", "--", process.execPath, ...up];
const n = 3000;
const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
const client = new Client({ name: "drive", version: "1" });
await client.connect(transport);
for (let i = 0; i < 300; i++) await client.callTool({ name: "echo", arguments: { text: `w ${i}` } });
const before = threads(transport.pid);
for (let i = 0; i < n; i++) await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
const after = threads(transport.pid);
for (const k of Object.keys(after)) { const d = after[k] - (before[k] ?? 0); if (d > 0) console.log(k, (d / n * 1000).toFixed(1), "us/call"); }
await client.close();
