// Pins behaviours of @modelcontextprotocol/sdk that the design relies on (docs/sdk-notes.md),
// against the real SDK: when an SDK upgrade changes one, this file fails and names the note to
// re-read. Only behaviours no other test pins through the adapter are checked here.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ReadBuffer,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from "@modelcontextprotocol/sdk/shared/stdio.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(server: Server | McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "sdk-behaviour-test", version: "1.0.0" });
  await client.connect(clientTransport);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

/**
 * A low-level Server with one tool, `lookup`, whose listing and result the test chooses, sent as
 * given: answered by the fallback handler, because the Server parses (and strips) what a
 * registered tools/call handler returns, and the client's own behaviour is what is pinned here.
 */
function rawServerWithTool(tool: Record<string, unknown>, result: Record<string, unknown>): Server {
  const server = new Server({ name: "fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.fallbackRequestHandler = async (request) =>
    (request.method === "tools/list"
      ? { tools: [{ name: "lookup", inputSchema: { type: "object" }, ...tool }] }
      : result) as never;
  return server;
}

/** The same tool with registered handlers: the Server's own wrapper runs on its results. */
function registeredServerWithTool(result: Record<string, unknown>): Server {
  const server = new Server({ name: "fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "lookup", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => result as never);
  return server;
}

describe("@modelcontextprotocol/sdk 1.32.2, as docs/sdk-notes.md describes it", () => {
  it("§1: McpServer answers arguments its strict zod schema refuses with plain text, before the handler", async () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    let handlerRuns = 0;
    server.registerTool("strict", { inputSchema: { artifactId: z.string() } }, () => {
      handlerRuns += 1;
      return { content: [] };
    });
    const client = await connect(server);
    const result = await client.callTool({ name: "strict", arguments: { artifact_id: "x" } });
    expect(handlerRuns).toBe(0);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [block] = result.content as Array<{ type: string; text: string }>;
    expect(block?.type).toBe("text");
    expect(block?.text).toContain("Input validation error");
  });

  it("§3: a plain throw in a resource template's read callback reaches the client as -32603", async () => {
    const server = new McpServer({ name: "fixture", version: "1.0.0" });
    server.registerResource(
      "things",
      new ResourceTemplate("thing://{id}", { list: undefined }),
      {},
      () => {
        throw new Error("no such thing");
      },
    );
    const client = await connect(server);
    const error = await client
      .readResource({ uri: "thing://a" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
  });

  it("§5: listTools throws when an outputSchema is a bare top-level anyOf", async () => {
    const bareAnyOf = { anyOf: [{ type: "object" }, { type: "object" }] };
    const client = await connect(rawServerWithTool({ outputSchema: bareAnyOf }, { content: [] }));
    await expect(client.listTools()).rejects.toThrow();
  });

  it("§5: callTool rejects an array as structuredContent", async () => {
    const client = await connect(
      rawServerWithTool({}, { content: [], structuredContent: [1, 2, 3] }),
    );
    await expect(client.callTool({ name: "lookup", arguments: {} })).rejects.toThrow();
  });

  it("§6: callTool drops keys it does not know inside a content block; request with a loose schema keeps them", async () => {
    const block = { type: "text", text: "hello", vendorKey: "kept?" };
    const client = await connect(rawServerWithTool({}, { content: [block] }));
    const viaCallTool = await client.callTool({ name: "lookup", arguments: {} });
    expect(viaCallTool.content).toEqual([{ type: "text", text: "hello" }]);
    const viaRequest = await client.request(
      { method: "tools/call", params: { name: "lookup", arguments: {} } },
      z.looseObject({}),
    );
    expect(viaRequest).toEqual({ content: [block] });
  });

  it("§6: a registered tools/call handler's result is parsed and stripped by the Server before it is sent", async () => {
    const block = { type: "text", text: "hello", vendorKey: "dropped" };
    const client = await connect(registeredServerWithTool({ content: [block] }));
    const viaRequest = await client.request(
      { method: "tools/call", params: { name: "lookup", arguments: {} } },
      z.looseObject({}),
    );
    expect(viaRequest).toEqual({ content: [{ type: "text", text: "hello" }] });
    expect(CallToolResultSchema.parse({ content: [block] }).content).toEqual([
      { type: "text", text: "hello" },
    ]);
  });

  it("§6: a request without its own timeout gives up after 60 s", () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MSEC).toBe(60_000);
  });

  it("§7: an SDK server writes a response's id after its result, so the id ends the line", async () => {
    const server = registeredServerWithTool({ content: [{ type: "text", text: "hello" }] });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    closers.push(() => server.close());
    const keyOrder = new Promise<string[]>((resolve) => {
      clientTransport.onmessage = (message) => resolve(Object.keys(message));
    });
    await clientTransport.start();
    await clientTransport.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "lookup", arguments: {} },
    });
    expect(await keyOrder).toEqual(["result", "jsonrpc", "id"]);
  });

  it("§7: StdioClientTransport's read buffer refuses a message over 10 MiB", () => {
    expect(STDIO_DEFAULT_MAX_BUFFER_SIZE).toBe(10 * 1024 * 1024);
    const buffer = new ReadBuffer();
    buffer.append(Buffer.alloc(STDIO_DEFAULT_MAX_BUFFER_SIZE, 0x20));
    expect(() => buffer.append(Buffer.from(" "))).toThrow(/exceeded maximum size/);
  });
});
