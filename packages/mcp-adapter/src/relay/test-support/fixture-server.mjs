#!/usr/bin/env node
// A tiny MCP server over stdio for the relay transport tests: an SDK McpServer whose tools return
// N MiB of JSON, write to stderr, crash on demand or answer slowly.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { createPayloadText } from "./payload.mjs";

const server = new McpServer({ name: "relay-fixture", version: "1.0.0" });

server.registerTool(
  "payload",
  {
    description: "Returns N MiB of JSON as one text block.",
    inputSchema: { mebibytes: z.number() },
  },
  async ({ mebibytes }) => ({ content: [{ type: "text", text: createPayloadText(mebibytes) }] }),
);

server.registerTool(
  "echo",
  { description: "Returns its text.", inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);

server.registerTool(
  "stderr",
  { description: "Writes each line to stderr.", inputSchema: { lines: z.array(z.string()) } },
  async ({ lines }) => {
    process.stderr.write(`${lines.join("\n")}\n`);
    return { content: [{ type: "text", text: `wrote ${lines.length} lines` }] };
  },
);

server.registerTool(
  "crash",
  { description: "Exits the process with a code.", inputSchema: { code: z.number().int() } },
  async ({ code }) => {
    setTimeout(() => process.exit(code), 20);
    return new Promise(() => {});
  },
);

server.registerTool(
  "progress",
  {
    description: "Sends `steps` progress notifications, then answers at once.",
    inputSchema: { steps: z.number().int() },
  },
  async ({ steps }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let step = 1; step <= steps && progressToken !== undefined; step += 1) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: step, total: steps },
      });
    }
    return { content: [{ type: "text", text: `sent ${steps} progress notifications` }] };
  },
);

server.registerTool(
  "wait",
  { description: "Waits until cancelled, then says so on stderr.", inputSchema: {} },
  async (_arguments, extra) =>
    new Promise((resolve) => {
      extra.signal.addEventListener("abort", () => {
        process.stderr.write(`cancelled: ${extra.signal.reason}\n`);
        resolve({ content: [{ type: "text", text: "cancelled" }] });
      });
    }),
);

server.registerTool(
  "pid",
  { description: "Returns the process id.", inputSchema: {} },
  async () => ({ content: [{ type: "text", text: String(process.pid) }] }),
);

await server.connect(new StdioServerTransport());
