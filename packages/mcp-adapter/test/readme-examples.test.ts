/**
 * Each TypeScript example of README.md, read from the README at test time (the blocks marked
 * `readme-block: run NAME`): only the imports a fragment assumes, the fixture data (`loadItems`)
 * and an export of what it built are added around it; a real Client then checks it. If one of
 * these fails, the README is wrong.
 */

import { writeReadmeBlock } from "@bounded-mcp/vitest-config/readme-blocks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/index.js";
import { jsonTextResult } from "./support/fixtures.js";
import { type Connection, connect } from "./support/harness.js";

const FIXTURES_URL = new URL("./support/readme-fixtures.ts", import.meta.url).href;
const FIXTURES = `import { loadItems } from ${JSON.stringify(FIXTURES_URL)};\n`;
const SDK_SERVER = 'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n';
const SDK_MCP_SERVER = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n';
const ADAPTER = 'import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";\n';
const SCHEMAS = `import { CallToolRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";\n`;
const EXPORT = "\nexport { bounded, server };\n";

/** Writes README block `name` with `before` around it and imports it: what it exported. */
async function runBlock<T>(name: string, before: string, after = EXPORT): Promise<T> {
  const file = writeReadmeBlock({
    readme: new URL("../README.md", import.meta.url),
    name,
    packageDir: new URL("..", import.meta.url),
    before,
    after,
  });
  return (await import(file)) as T;
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
    const { bounded, server } = await runBlock<{ bounded: BoundedMcp; server: Server }>(
      "adapter-low-level-server",
      FIXTURES,
    );
    const client = track(bounded, await connect(server));
    await expectBoundedAndQueryable(client);
    expect(bounded.stats().tools.list_items).toMatchObject({
      calls: 1,
      boundedCalls: 1,
      queries: 1,
    });
  });

  it("bounds results and serves the query tool and descriptors on a Server wired without attach", async () => {
    const { bounded, server } = await runBlock<{ bounded: BoundedMcp; server: Server }>(
      "adapter-without-attach",
      FIXTURES + ADAPTER + SDK_SERVER + SCHEMAS,
    );
    const client = track(bounded, await connect(server));
    await expectBoundedAndQueryable(client);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      bounded.descriptorTemplate,
    ]);
    expect(bounded.stats().tools.list_items).toMatchObject({ calls: 1, boundedCalls: 1 });
  });

  it("bounds every tool of an McpServer without touching its callbacks", async () => {
    const { bounded, server } = await runBlock<{ bounded: BoundedMcp; server: McpServer }>(
      "adapter-mcp-server",
      FIXTURES + ADAPTER + SDK_MCP_SERVER,
    );
    const client = track(bounded, await connect(server.server));
    await expectBoundedAndQueryable(client);
  });

  it("lets a tool with an outputSchema keep it: bounded results still pass the Client's validation", async () => {
    const { bounded, server } = await runBlock<{ bounded: BoundedMcp; server: McpServer }>(
      "adapter-output-schema",
      `${FIXTURES + ADAPTER + SDK_MCP_SERVER}import { z } from "zod";
const bounded = createBoundedMcp();
const server = new McpServer({ name: "inventory", version: "1.0.0" });
bounded.attach(server);
`,
    );
    const client = track(bounded, await connect(server.server));
    const result = await client.callTool({ name: "list_items", arguments: {} });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      responseMeta: { truncationReason: "size_limit" },
    });
  });

  it("takes queryWorkMs by name, as the textSearch section shows", async () => {
    const { bounded } = await runBlock<{ bounded: BoundedMcp }>(
      "adapter-query-work-ms",
      ADAPTER,
      "\nexport { bounded };\n",
    );
    cleanup.push(() => bounded.dispose());
    expect(bounded.settings.queryWorkMs).toBe(500);
  });

  it("takes mediaBytes by name, as the Images and audio section shows", async () => {
    const { bounded } = await runBlock<{ bounded: BoundedMcp }>(
      "adapter-media-bytes",
      ADAPTER,
      "\nexport { bounded };\n",
    );
    cleanup.push(() => bounded.dispose());
    expect(bounded.settings.mediaBytes).toBe(1_048_576);
  });

  it("redacts a secret before it is stored or previewed, as the Redaction section shows", async () => {
    const { bounded } = await runBlock<{ bounded: BoundedMcp }>(
      "adapter-redact",
      ADAPTER,
      "\nexport { bounded };\n",
    );
    cleanup.push(() => bounded.dispose());
    const rows = Array.from({ length: 2000 }, (_, index) => ({
      index,
      token: "sk-live-Abc123xyz",
    }));
    const result = await bounded.boundResult(jsonTextResult({ rows }));
    const envelope = result.structuredContent as { responseMeta: { artifact: { id: string } } };
    const stored = await bounded.store.get(envelope.responseMeta.artifact.id);
    const body = stored !== null && "body" in stored ? stored.body.toString("utf8") : "";
    expect({
      preview: JSON.stringify(result).includes("sk-live-"),
      stored: body.includes("sk-live-"),
      redacted: body.includes("[redacted]"),
    }).toEqual({ preview: false, stored: false, redacted: true });
  });
});
