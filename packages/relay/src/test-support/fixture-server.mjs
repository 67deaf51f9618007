#!/usr/bin/env node
// A tiny MCP server over stdio for the relay transport tests: an SDK McpServer whose tools return
// N MiB of JSON, write to stderr, crash on demand or answer slowly.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createPayloadText } from "./payload.mjs";

const server = new McpServer(
  { name: "relay-fixture", version: "1.0.0" },
  { capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } } },
);

// One resource and one prompt at start, so their handlers exist before connect (McpServer
// registers capabilities with the first one, which it cannot do once connected).
server.registerResource("seed", "fixture://seed", {}, async (uri) => ({
  contents: [{ uri: uri.href, text: "seed" }],
}));
server.registerPrompt("seed", { description: "present from the start" }, async () => ({
  messages: [{ role: "user", content: { type: "text", text: "seed" } }],
}));

/** What this process was asked to remember: the log level and the subscribed URIs, in order. */
const remembered = { logLevel: null, subscriptions: [] };
server.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
  remembered.logLevel = request.params.level;
  return {};
});
server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
  remembered.subscriptions.push(request.params.uri);
  return {};
});
server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
  remembered.subscriptions = remembered.subscriptions.filter((uri) => uri !== request.params.uri);
  return {};
});

server.registerTool(
  "remembered",
  {
    description: "Returns the log level and subscriptions this process received.",
    inputSchema: {},
  },
  async () => ({ content: [{ type: "text", text: JSON.stringify(remembered) }] }),
);

server.registerTool(
  "grow",
  {
    description:
      "Registers a tool, a resource and a prompt named after `name` (list_changed each).",
    inputSchema: { name: z.string() },
  },
  async ({ name }) => {
    server.registerTool(name, { description: `added at run time` }, async () => ({
      content: [{ type: "text", text: name }],
    }));
    server.registerResource(name, `fixture://${name}`, {}, async (uri) => ({
      contents: [{ uri: uri.href, text: name }],
    }));
    server.registerPrompt(name, { description: "added at run time" }, async () => ({
      messages: [{ role: "user", content: { type: "text", text: name } }],
    }));
    return { content: [{ type: "text", text: `added ${name}` }] };
  },
);

server.registerTool(
  "slow",
  {
    description:
      "Answers after `steps` x `stepMs`, sending progress after each step when asked for it.",
    inputSchema: { steps: z.number().int(), stepMs: z.number().int() },
  },
  async ({ steps, stepMs }, extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let step = 1; step <= steps; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, stepMs));
      if (progressToken !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress: step, total: steps },
        });
      }
    }
    return {
      content: [
        {
          type: "text",
          text: `done after ${steps} steps; asked for progress: ${progressToken !== undefined}`,
        },
      ],
    };
  },
);

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

if (process.argv.includes("--clash")) {
  server.registerTool(
    "query_response_artifact",
    { description: "A tool with the name of the relay's own query tool.", inputSchema: {} },
    async () => ({ content: [{ type: "text", text: "clash" }] }),
  );
}

await server.connect(new StdioServerTransport());
