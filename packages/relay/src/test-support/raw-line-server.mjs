#!/usr/bin/env node
// A minimal stdio MCP server for transport benchmarks and tests: answers initialize, and answers
// every other request with one pre-serialized result of N MiB (argv[2]), written the way SDK
// servers write it ({result, jsonrpc, id}), so a benchmark times the client side, not the
// server's serialization. With argv[3] "noise" it first writes a line that is not JSON-RPC.
import { createInterface } from "node:readline";
import { createPayloadText } from "./payload.mjs";

const mebibytes = Number(process.argv[2] ?? "1");
const result = Buffer.from(
  JSON.stringify({ content: [{ type: "text", text: createPayloadText(mebibytes) }] }),
);

const RESULT_PREFIX = Buffer.from('{"result":');

/** Writes `{"result":<bytes>,"jsonrpc":"2.0","id":<id>}` without copying the result bytes. */
function reply(id, resultBytes) {
  process.stdout.write(RESULT_PREFIX);
  process.stdout.write(resultBytes);
  process.stdout.write(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    const initialize = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "raw-line-server", version: "1.0.0" },
    };
    reply(message.id, Buffer.from(JSON.stringify(initialize)));
    if (process.argv[3] === "noise") process.stdout.write("debug: server ready\n");
  } else if (message.id !== undefined) {
    reply(message.id, result);
  }
}
