#!/usr/bin/env node
// A stdio MCP server for the call lane's tests: it answers every tools/call with a JSON-RPC
// error (code -32050, a message and data), which an SDK McpServer never does (it turns a
// callback's throw into an isError result).
import { createInterface } from "node:readline";

function write(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === "initialize") {
    write({
      jsonrpc: "2.0",
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "error-response-server", version: "1.0.0" },
      },
    });
  } else if (message.method === "tools/list") {
    write({
      jsonrpc: "2.0",
      id: message.id,
      result: { tools: [{ name: "refuse", inputSchema: { type: "object" } }] },
    });
  } else if (message.method === "tools/call") {
    write({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32050, message: "upstream refused the call", data: { why: "testing" } },
    });
  } else {
    write({ jsonrpc: "2.0", id: message.id, result: {} });
  }
}
