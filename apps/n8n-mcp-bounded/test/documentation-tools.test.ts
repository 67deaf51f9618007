import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeSchemaPreview } from "../src/previews/node-schema-preview.js";
import {
  type BoundedConnection,
  connectBounded,
  connectDirect,
  testEnvironment,
} from "./support/connect-bounded.js";
import { envelopeOf, expectedArtifact, query, queryAllPages, textOf } from "./support/envelopes.js";

const NOTION_FULL = { nodeType: "n8n-nodes-base.notion", detail: "full" };
const SLACK_FULL = { nodeType: "n8n-nodes-base.slack", detail: "full" };
const TEMPLATES_BY_NODE = {
  searchMode: "by_nodes",
  nodeTypes: ["n8n-nodes-base.httpRequest"],
  limit: 100,
};

let bounded: BoundedConnection;
let direct: Client;

beforeAll(async () => {
  [bounded, direct] = await Promise.all([
    connectBounded("claude-code"),
    connectDirect("claude-code"),
  ]);
});

afterAll(async () => {
  await Promise.all([bounded?.close(), direct?.close()]);
});

async function directCall(name: string, argumentsValue: Record<string, unknown>) {
  return (await direct.callTool({ name, arguments: argumentsValue })) as CallToolResult;
}

describe("n8n-mcp documentation tools through n8n-mcp-bounded", () => {
  it("bounds get_node notion (detail full, 558 KB) with the node schema preview", async () => {
    const raw = textOf(await directCall("get_node", NOTION_FULL));
    expect(raw.length).toBeGreaterThan(500_000);
    const envelope = envelopeOf(await bounded.call("get_node", NOTION_FULL));
    expect(envelope).toEqual({
      success: true,
      data: createNodeSchemaPreview(JSON.parse(raw)),
      responseMeta: {
        contractVersion: 3,
        truncated: true,
        complete: false,
        truncationReason: "size_limit",
        serializedBytes: Buffer.byteLength(raw),
        sourceTruncated: false,
        artifact: expectedArtifact(raw, {
          mediaType: "application/json",
          responseRoot: "/properties",
          primaryPaths: ["/properties", "/operations"],
          sourceTruncated: false,
        }),
      },
      guidance: expect.stringMatching(/"\/properties": \d+ items; "\/operations": \d+ items/),
    });
  });

  it("answers 'every operation of the Notion node' by paging /operations", async () => {
    const raw = JSON.parse(textOf(await directCall("get_node", NOTION_FULL)));
    const envelope = envelopeOf(await bounded.call("get_node", NOTION_FULL));
    const { items, pages } = await queryAllPages(bounded.call, {
      artifactId: envelope.responseMeta.artifact.id,
      responsePath: "/operations",
      fields: ["resource", "operation"],
      pageSize: 5,
    });
    expect(pages).toBe(Math.ceil(raw.operations.length / 5));
    expect(items).toEqual(
      raw.operations.map((operation: { resource: string; operation: string }) => ({
        resource: operation.resource,
        operation: operation.operation,
      })),
    );
  });

  it("bounds get_node slack (detail full) and filters its properties", async () => {
    const raw = textOf(await directCall("get_node", SLACK_FULL));
    const envelope = envelopeOf(await bounded.call("get_node", SLACK_FULL));
    expect(envelope.responseMeta.artifact).toEqual(
      expectedArtifact(raw, {
        mediaType: "application/json",
        responseRoot: "/properties",
        primaryPaths: ["/properties", "/operations"],
        sourceTruncated: false,
      }),
    );
    expect(envelope.data).toMatchObject({ displayName: "Slack", operationCount: 48 });
    const properties = JSON.parse(raw).properties as { name: string; type: string }[];
    const locators = properties.filter((property) => property.type === "resourceLocator");
    const page = await query(bounded.call, {
      artifactId: envelope.responseMeta.artifact.id,
      filters: [{ path: "/type", value: "resourceLocator" }],
      fields: ["name"],
      pageSize: 100,
    });
    expect(page.response).toEqual(locators.map(({ name }) => ({ name })));
    expect(page).toMatchObject({
      responsePath: "/properties",
      responseMeta: { totalCount: locators.length, nextCursor: null },
    });
  });

  it("bounds search_templates by_nodes with limit 100 and finds the templates that use a node", async () => {
    const raw = textOf(await directCall("search_templates", TEMPLATES_BY_NODE));
    const envelope = envelopeOf(await bounded.call("search_templates", TEMPLATES_BY_NODE));
    expect(envelope.responseMeta.artifact).toEqual(
      expectedArtifact(raw, {
        mediaType: "application/json",
        responseRoot: "/items",
        primaryPaths: ["/items"],
        sourceTruncated: true,
      }),
    );
    const templates = JSON.parse(raw) as {
      total: number;
      items: { id: number; name: string; nodes: string[] }[];
    };
    expect(envelope.data).toMatchObject({ total: templates.total, itemCount: 100 });
    const usingSlack = templates.items.filter((item) =>
      item.nodes.includes("n8n-nodes-base.slack"),
    );
    expect(usingSlack.length).toBeGreaterThan(0);
    const { items } = await queryAllPages(bounded.call, {
      artifactId: envelope.responseMeta.artifact.id,
      filters: [{ path: "/nodes", op: "contains", value: "n8n-nodes-base.slack" }],
      fields: ["id", "name"],
    });
    expect(items).toEqual(usingSlack.map(({ id, name }) => ({ id, name })));
  });

  it("passes get_node httpRequest (detail standard) through inline, byte-identical", async () => {
    const standard = { nodeType: "n8n-nodes-base.httpRequest", detail: "standard" };
    const expected = await directCall("get_node", standard);
    const received = await bounded.call("get_node", standard);
    expect(JSON.stringify(received)).toBe(JSON.stringify(expected));
    expect(received).toEqual(expected);
  });
});

describe("MCP_RESPONSE_* settings and markdown results", () => {
  let small: BoundedConnection;

  beforeAll(async () => {
    small = await connectBounded("claude-code", {
      environment: testEnvironment({
        MCP_RESPONSE_INLINE_BYTES: "4096",
        MCP_RESPONSE_PREVIEW_BYTES: "2048",
      }),
    });
  });

  afterAll(async () => {
    await small?.close();
  });

  it("stores tools_documentation markdown over MCP_RESPONSE_INLINE_BYTES as a text artifact", async () => {
    const raw = textOf(await directCall("tools_documentation", {}));
    expect(raw.startsWith("# n8n MCP Tools Reference")).toBe(true);
    const result = await small.call("tools_documentation", {});
    const envelope = envelopeOf(result);
    expect(Buffer.byteLength(textOf(result))).toBeLessThanOrEqual(2048);
    expect(envelope.responseMeta.artifact).toEqual(
      expectedArtifact(raw, {
        mediaType: "text/plain",
        responseRoot: "/lines",
        primaryPaths: ["/lines"],
        sourceTruncated: false,
      }),
    );
    const search = await query(small.call, {
      artifactId: envelope.responseMeta.artifact.id,
      textSearch: { query: "search_nodes" },
      pageSize: 1,
    });
    const lines = raw.split("\n");
    const firstLine = lines.findIndex((line) => line.toLowerCase().includes("search_nodes"));
    expect(search.response).toEqual([expect.objectContaining({ pointer: `/lines/${firstLine}` })]);
  });
});
