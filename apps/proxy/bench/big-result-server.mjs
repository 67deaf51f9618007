#!/usr/bin/env node
// A minimal stdio MCP server for the proxy benchmark: one tool, `big`, whose result is one text
// block holding N MiB of JSON (argv[2]), serialized once at start so the benchmark times the
// proxy, not this server. Writes `{result, jsonrpc, id}` like SDK servers do.
import { createInterface } from "node:readline";

const mebibytes = Number(process.argv[2] ?? "1");
const row = (index) =>
  `{"id":${index},"name":"item-${index}","tags":["a","b"],"note":"${"n".repeat(200)}"}`;
const rows = [];
let length = 0;
for (let index = 0; length < mebibytes * 1024 * 1024; index += 1) {
  const text = row(index);
  rows.push(text);
  length += text.length + 1;
}
const payload = `{"rows":[${rows.join(",")}]}`;
const bigResult = Buffer.from(JSON.stringify({ content: [{ type: "text", text: payload }] }));
const TOOLS = { tools: [{ name: "big", inputSchema: { type: "object" } }] };

function reply(id, resultBytes) {
  process.stdout.write('{"result":');
  process.stdout.write(resultBytes);
  process.stdout.write(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === "initialize") {
    const result = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "big-result-server", version: "1.0.0" },
    };
    reply(message.id, Buffer.from(JSON.stringify(result)));
  } else if (message.method === "tools/list") {
    reply(message.id, Buffer.from(JSON.stringify(TOOLS)));
  } else if (message.method === "tools/call") {
    reply(message.id, bigResult);
  } else {
    reply(message.id, Buffer.from("{}"));
  }
}
