import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8"); const x = f.slice(f.lastIndexOf(")") + 2).split(" "); return (Number(x[11]) + Number(x[12])) * 10; };
const up = ["src/test-support/fixture-server.mjs"];
const systems = {
  json: ["bench/fixtures/json-relay.mjs", process.execPath, ...up],
  proxy: ["../../apps/proxy/dist/cli.js", "--", process.execPath, ...up],
};
const n = Number(process.env.N ?? 3000);
for (const [name, args] of Object.entries(systems)) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" });
  const client = new Client({ name: "drive", version: "1" });
  await client.connect(transport);
  for (let i = 0; i < 300; i++) await client.callTool({ name: "echo", arguments: { text: `w ${i}` } });
  const before = cpu(transport.pid); const t0 = performance.now();
  for (let i = 0; i < n; i++) await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
  const wall = (performance.now() - t0) / n * 1000;
  console.log(name, "cpu/call", ((cpu(transport.pid) - before) / n * 1000).toFixed(0), "us; wall/call", wall.toFixed(0), "us");
  await client.close();
}
