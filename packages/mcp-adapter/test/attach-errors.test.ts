import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createTestAdapter } from "./support/harness.js";

const ALREADY_ATTACHED =
  "attach(server) was already called for this server: attach each server to one adapter, once";

let adapters: BoundedMcp[] = [];
afterEach(async () => {
  for (const bounded of adapters) await bounded.dispose();
  adapters = [];
});

function adapter(): BoundedMcp {
  const bounded = createTestAdapter();
  adapters.push(bounded);
  return bounded;
}

function lowLevelServer(): Server {
  return new Server({ name: "fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
}

describe("attach refuses, with a message saying what to do", () => {
  it("a low-level Server whose tools/list handler is already registered", () => {
    const server = lowLevelServer();
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    expect(() => adapter().attach(server)).toThrow(
      new Error(
        "attach(server) must run before a tools/list handler is registered: it keeps the author's handlers behind its own",
      ),
    );
  });

  it("an McpServer that already has a tool", () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    server.registerTool("fixture", {}, async () => ({ content: [] }));
    expect(() => adapter().attach(server)).toThrow(
      new Error(
        "attach(mcpServer) must run before the first registerTool: it wraps the tool handlers McpServer installs then",
      ),
    );
  });

  it("a second attach of the same server, by the same or another adapter", () => {
    const server = lowLevelServer();
    const bounded = adapter();
    bounded.attach(server);
    expect(() => bounded.attach(server)).toThrow(new Error(ALREADY_ATTACHED));
    expect(() => adapter().attach(server)).toThrow(new Error(ALREADY_ATTACHED));
  });

  it("the low-level Server of an attached McpServer", () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    adapter().attach(server);
    expect(() => adapter().attach(server)).toThrow(new Error(ALREADY_ATTACHED));
    expect(() => adapter().attach(server.server)).toThrow(new Error(ALREADY_ATTACHED));
  });

  it("again with the same reason after a refused attach (a refusal does not mark the server attached)", () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    server.registerTool("fixture", {}, async () => ({ content: [] }));
    expect(() => adapter().attach(server)).toThrow(/must run before the first registerTool/);
    expect(() => adapter().attach(server)).toThrow(/must run before the first registerTool/);
  });
});
