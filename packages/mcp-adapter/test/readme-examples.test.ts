/**
 * Each example of README.md, as written there (only the fixture data and the Client are added):
 * if one of these fails, the README is wrong.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type BoundedMcp, createBoundedMcp } from "../src/index.js";
import { itemsPayload } from "./support/fixtures.js";
import { type Connection, connect, TEST_KEYS } from "./support/harness.js";

const items = itemsPayload(2_000).data.items;
async function loadItems() {
  return items;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup) await step();
  cleanup = [];
});

function track(bounded: BoundedMcp, connection: Connection): Client {
  cleanup.push(async () => {
    await connection.close();
    await bounded.dispose();
  });
  return connection.client;
}

/** What README's "what the model sees" section shows, checked for one connected client. */
async function expectBoundedAndQueryable(client: Client) {
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toEqual(["list_items", "query_response_artifact"]);
  const result = (await client.callTool({ name: "list_items", arguments: {} })) as CallToolResult;
  const envelope = result.structuredContent as {
    responseMeta: { artifact: { id: string; uri: string; responseRoot: string } };
  };
  expect(Buffer.byteLength(JSON.stringify(envelope))).toBeLessThanOrEqual(8192);
  const { id, uri } = envelope.responseMeta.artifact;
  expect(result.content[1]).toMatchObject({ type: "resource_link", uri });
  const page = await client.callTool({
    name: "query_response_artifact",
    arguments: {
      artifactId: id,
      filters: [{ path: "/status", value: "draft" }],
      fields: ["id"],
      pageSize: 2,
    },
  });
  expect(page.isError).toBeUndefined();
  expect((page.structuredContent as { response: unknown }).response).toEqual([
    { id: "item-000002" },
    { id: "item-000005" },
  ]);
  const descriptor = await client.readResource({ uri });
  const [content] = descriptor.contents;
  const text = content !== undefined && "text" in content ? content.text : "null";
  expect(JSON.parse(text)).toMatchObject({
    id,
    rawReadable: false,
  });
}

describe("README examples", () => {
  it("bounds results inside an existing CallTool handler of a low-level Server with one call", async () => {
    // README: "A low-level Server"
    const bounded = createBoundedMcp({ keys: TEST_KEYS, environment: {} });
    const server = new Server(
      { name: "inventory", version: "1.0.0" },
      { capabilities: { tools: {} } },
    );
    bounded.attach(server); // before the handlers: adds the query tool and artifact://bounded-mcp/{id}

    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "list_items", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      const result: CallToolResult = {
        content: [{ type: "text", text: JSON.stringify(await loadItems()) }],
      };
      return bounded.boundResult(result, extra); // the one call
    });
    // end of README example

    const client = track(bounded, await connect(server));
    await expectBoundedAndQueryable(client);
    expect(bounded.stats().tools.list_items).toMatchObject({
      calls: 1,
      boundedCalls: 1,
      queries: 1,
    });
  });

  it("bounds results and serves the query tool and descriptors on a Server wired without attach", async () => {
    // README: "A low-level Server you wire yourself, without attach"
    const bounded = createBoundedMcp({ keys: TEST_KEYS, environment: {} });
    const server = new Server(
      { name: "inventory", version: "1.0.0" },
      { capabilities: { tools: {}, resources: {} } },
    );

    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "list_items", inputSchema: { type: "object" } }, bounded.queryTool],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      if (name === bounded.queryTool.name) return bounded.callQueryTool(args, extra);
      const result: CallToolResult = {
        content: [{ type: "text", text: JSON.stringify(await loadItems()) }],
      };
      return bounded.boundResult(result, { ...extra, toolName: name });
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: [bounded.descriptorTemplate],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) =>
      bounded.readDescriptor(request.params.uri, extra),
    );
    // end of README example

    const client = track(bounded, await connect(server));
    await expectBoundedAndQueryable(client);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      bounded.descriptorTemplate,
    ]);
    expect(bounded.stats().tools.list_items).toMatchObject({ calls: 1, boundedCalls: 1 });
  });

  it("bounds every tool of an McpServer without touching its callbacks", async () => {
    // README: "An McpServer"
    const bounded = createBoundedMcp({ keys: TEST_KEYS, environment: {} });
    const server = new McpServer({ name: "inventory", version: "1.0.0" });
    bounded.attach(server); // before the first registerTool

    server.registerTool("list_items", { description: "Every item" }, async () => ({
      content: [{ type: "text", text: JSON.stringify(await loadItems()) }],
    }));
    // end of README example

    const client = track(bounded, await connect(server.server));
    await expectBoundedAndQueryable(client);
  });

  it("lets a tool with an outputSchema keep it: bounded results still pass the Client's validation", async () => {
    // README: "Tools with an outputSchema"
    const bounded = createBoundedMcp({ keys: TEST_KEYS, environment: {} });
    const server = new McpServer({ name: "inventory", version: "1.0.0" });
    bounded.attach(server);

    server.registerTool(
      "list_items",
      {
        outputSchema: {
          items: z.array(z.object({ id: z.string(), status: z.string() }).passthrough()),
        },
      },
      async () => {
        const structuredContent = { items: await loadItems() };
        return {
          content: [{ type: "text", text: JSON.stringify(structuredContent) }],
          structuredContent,
        };
      },
    );
    // end of README example

    const client = track(bounded, await connect(server.server));
    const result = await client.callTool({ name: "list_items", arguments: {} });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      responseMeta: { truncationReason: "size_limit" },
    });
  });
});
