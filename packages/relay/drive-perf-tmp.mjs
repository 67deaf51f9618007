import { execFileSync, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const up = ["src/test-support/fixture-server.mjs"];
const transport = new StdioClientTransport({ command: process.execPath, args: ["../../apps/proxy/dist/cli.js", "--", process.execPath, ...up], stderr: "ignore" });
const client = new Client({ name: "drive", version: "1" });
await client.connect(transport);
for (let i = 0; i < 300; i++) await client.callTool({ name: "echo", arguments: { text: `w ${i}` } });
const perf = spawn("perf", ["record", "-o", "/tmp/lane/perf.data", "-F", "2000", "-p", String(transport.pid), "--", "sleep", "4"], { stdio: "inherit" });
const t0 = Date.now();
let n = 0;
while (Date.now() - t0 < 4500) { await client.callTool({ name: "echo", arguments: { text: `call ${n}` } }); n++; }
await new Promise((r) => perf.on("exit", r));
console.log("calls", n);
await client.close();
