#!/usr/bin/env node
// The stdio upstream of the HTTP load benchmark (http-load.ts): tool `big` returns the document
// of load-document.mjs (argv[2] MiB) as one text block; it is built on the first call, since
// every one of the proxy's sessions starts its own child and only one of them is called.
import { createInterface } from "node:readline";
import { loadDocumentText } from "./load-document.mjs";

const mebibytes = Number(process.argv[2] ?? "50");
let bigResult;
const TOOLS = { tools: [{ name: "big", inputSchema: { type: "object" } }] };

function reply(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === "initialize") {
    reply(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "load-upstream", version: "1.0.0" },
    });
  } else if (message.method === "tools/list") {
    reply(message.id, TOOLS);
  } else if (message.method === "tools/call") {
    bigResult ??= { content: [{ type: "text", text: loadDocumentText(mebibytes) }] };
    reply(message.id, bigResult);
  } else {
    reply(message.id, {});
  }
}
