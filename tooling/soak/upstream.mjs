#!/usr/bin/env node
// A small stdio MCP upstream for the soak load: tool `records` returns `{owner, records: [...]}`
// as one JSON text block, `count` records (default 2,000, about 300 KiB) each tagged with the
// `owner` argument, so the load can tell whose data an answer holds; tool `small` returns a few
// bytes. Messages are newline-delimited JSON-RPC, as SDK servers write them.
import { createInterface } from "node:readline";

const TOOLS = {
  tools: [
    { name: "records", inputSchema: { type: "object" } },
    { name: "small", inputSchema: { type: "object" } },
  ],
};

function records(owner, count, seed) {
  const rows = [];
  for (let index = 0; index < count; index += 1) {
    const n = (index * 2_654_435_761 + seed) >>> 0;
    rows.push({
      id: `${owner}-${seed}-${index}`,
      owner,
      status: ["active", "archived", "draft"][n % 3],
      score: n % 1_000,
      tags: [`group-${n % 7}`, `batch-${index % 11}`],
      note: `Record ${index} of ${owner}: ${"lorem ipsum ".repeat(1 + (n % 12))}`,
    });
  }
  return { owner, seed, total: count, records: rows };
}

function reply(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === "initialize") {
    reply(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "soak-upstream", version: "1.0.0" },
    });
  } else if (message.method === "tools/list") {
    reply(message.id, TOOLS);
  } else if (message.method === "tools/call") {
    const args = message.params.arguments ?? {};
    if (message.params.name === "records") {
      const value = records(
        String(args.owner ?? "nobody"),
        Number(args.count ?? 2_000),
        Number(args.seed ?? 0),
      );
      reply(message.id, { content: [{ type: "text", text: JSON.stringify(value) }] });
    } else {
      reply(message.id, { content: [{ type: "text", text: JSON.stringify({ ok: true }) }] });
    }
  } else {
    reply(message.id, {});
  }
}
