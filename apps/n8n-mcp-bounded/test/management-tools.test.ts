import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutionsPreview } from "../src/previews/executions-preview.js";
import { N8N_MCP_CUT_MARKER, SOURCE_CUT_SUMMARIES } from "../src/previews/source-cut.js";
import { N8N_QUERY_TOOL_NOTE } from "../src/runtime/query-tool-note.js";
import {
  type BoundedConnection,
  connectBounded,
  testEnvironment,
} from "./support/connect-bounded.js";
import { envelopeOf, expectedArtifact, query, queryAllPages, textOf } from "./support/envelopes.js";
import { generatedNodeName } from "./support/generate-workflow.js";
import {
  type N8nApiStandIn,
  STAND_IN_API_KEY,
  STAND_IN_EXECUTIONS,
  STAND_IN_WORKFLOWS,
  startN8nApiStandIn,
} from "./support/n8n-api-stand-in.js";

let api: N8nApiStandIn;
let bounded: BoundedConnection;

beforeAll(async () => {
  api = await startN8nApiStandIn();
  bounded = await connectBounded("claude-code", {
    environment: testEnvironment({
      N8N_API_URL: api.url,
      N8N_API_KEY: STAND_IN_API_KEY,
      WEBHOOK_SECURITY_MODE: "moderate",
    }),
  });
});

afterAll(async () => {
  await bounded?.close();
  await api?.close();
});

/** What n8n-mcp sends for a management tool's success: `{success, data}` pretty-printed. */
function n8nMcpText(data: unknown): string {
  return JSON.stringify({ success: true, data }, null, 2);
}

describe("n8n-mcp management tools against a stand-in of the n8n API", () => {
  it("bounds n8n_get_workflow of 320 nodes with the workflow preview", async () => {
    const workflow = STAND_IN_WORKFLOWS.big;
    const envelope = envelopeOf(await bounded.call("n8n_get_workflow", { id: "big" }));
    expect(api.requests).toContain("GET /api/v1/workflows/big");
    expect(envelope.responseMeta.artifact).toEqual(
      expectedArtifact(n8nMcpText(workflow), {
        mediaType: "application/json",
        responseRoot: "/data",
        primaryPaths: ["/data/nodes", "/data/connections"],
        sourceTruncated: false,
      }),
    );
    const data = envelope.data as {
      nodeCount: number;
      edgeCount: number;
      nodes: unknown[];
      edges: unknown[];
      otherKeys: string[];
    };
    expect(data).toMatchObject({
      id: "big",
      name: workflow.name,
      nodeCount: 320,
      edgeCount: 319 + 31,
      otherKeys: ["settings", "tags"],
    });
    expect(data.nodes.slice(0, 2)).toEqual([
      {
        id: "node-0",
        name: "Webhook",
        type: "n8n-nodes-base.webhook",
        typeVersion: 1,
        disabled: false,
      },
      {
        id: "node-1",
        name: "Step 0001",
        type: "n8n-nodes-base.code",
        typeVersion: 1,
        disabled: false,
      },
    ]);
    expect(data.nodes.at(-1)).toEqual({ _omittedItems: 320 - (data.nodes.length - 1) });
    expect(data.edges[0]).toEqual({
      from: "Webhook",
      to: "Step 0001",
      type: "main",
      output: 0,
      index: 0,
    });
  });

  it("queries the keyed connections with objectMode entries, as the query tool's example says", async () => {
    const tools = (await bounded.client.listTools()).tools;
    const queryTool = tools.find((tool) => tool.name === "query_response_artifact");
    expect(queryTool?.description?.endsWith(N8N_QUERY_TOOL_NOTE)).toBe(true);
    const envelope = envelopeOf(await bounded.call("n8n_get_workflow", { id: "big" }));
    const artifactId = envelope.responseMeta.artifact.id;
    const example = await query(bounded.call, {
      artifactId,
      responsePath: "/data/connections",
      objectMode: "entries",
      filters: [{ path: "/key", op: "eq", value: "Webhook" }],
      fields: ["/key", "/value/main"],
    });
    expect(example.response).toEqual([
      { "/key": "Webhook", "/value/main": [[{ node: "Step 0001", type: "main", index: 0 }]] },
    ]);
    const withoutMode = await query(bounded.call, {
      artifactId,
      responsePath: "/data/connections",
      filters: [{ path: "/key", op: "eq", value: "Webhook" }],
    });
    expect(withoutMode.response).toMatchObject({ error: { code: "OBJECT_MODE_REQUIRED" } });
    const ifOutputs = await queryAllPages(bounded.call, {
      artifactId,
      responsePath: "/connections",
      objectMode: "entries",
      filters: [{ path: "/value/main/1/0/type", op: "exists", value: true }],
      fields: ["/key"],
      pageSize: 10,
    });
    expect(ifOutputs.items).toEqual(
      Array.from({ length: 31 }, (_, index) => ({ "/key": generatedNodeName((index + 1) * 10) })),
    );
  });

  it("finds the disabled nodes by filtering /nodes", async () => {
    const envelope = envelopeOf(await bounded.call("n8n_get_workflow", { id: "big" }));
    const page = await query(bounded.call, {
      artifactId: envelope.responseMeta.artifact.id,
      responsePath: "/nodes",
      filters: [{ path: "/disabled", value: true }],
      fields: ["name"],
      pageSize: 100,
    });
    expect(page.response).toEqual(
      STAND_IN_WORKFLOWS.big.nodes
        .filter((node) => node.disabled === true)
        .map((node) => ({ name: node.name })),
    );
    expect(page.responseMeta).toMatchObject({
      inferredResponsePath: "/data/nodes",
      totalCount: 13,
    });
  });

  it("bounds an n8n_executions list with its first 20 executions in the preview", async () => {
    const result = await bounded.call("n8n_executions", { action: "list" });
    const document = {
      success: true,
      data: {
        executions: STAND_IN_EXECUTIONS.slice(0, 100),
        returned: 100,
        nextCursor: "page-2",
        hasMore: true,
        _note: "More executions available. Use cursor to get next page.",
      },
    };
    const envelope = envelopeOf(result);
    // The envelope budget is max(2 KiB, 5% of the result): the preview's list is cut further, and
    // its marker counts every execution not shown (a marker the preview had is merged into it).
    const preview = createExecutionsPreview(document) as { executions: unknown[] };
    const last = preview.executions.at(-1) as { _omittedItems?: unknown } | undefined;
    const earlier = typeof last?._omittedItems === "number" ? last._omittedItems : 0;
    const listed = earlier > 0 ? preview.executions.slice(0, -1) : preview.executions;
    const shown = (envelope.data as { executions: unknown[] }).executions.length - 1;
    expect(shown).toBeGreaterThan(0);
    expect(envelope).toEqual({
      success: true,
      data: {
        ...preview,
        executions: [...listed.slice(0, shown), { _omittedItems: listed.length - shown + earlier }],
      },
      responseMeta: {
        contractVersion: 3,
        truncated: true,
        complete: false,
        truncationReason: "size_limit",
        serializedBytes: Buffer.byteLength(JSON.stringify(document, null, 2)),
        sourceTruncated: true,
        artifact: expectedArtifact(JSON.stringify(document, null, 2), {
          mediaType: "application/json",
          responseRoot: "/data",
          primaryPaths: ["/data/executions"],
          sourceTruncated: true,
        }),
      },
      guidance: expect.any(String),
    });
    expect(result._meta).toEqual({ "n8n-mcp/toolName": "n8n_executions" });
  });

  it("passes a {success: false} error object through small and unchanged", async () => {
    expect(await bounded.call("n8n_get_workflow", { id: "missing" })).toEqual({
      content: [
        {
          type: "text",
          text: JSON.stringify({ success: false, error: "Not Found", code: "NOT_FOUND" }, null, 2),
        },
      ],
    });
  });

  it("stores a workflow n8n-mcp cut at 1,000,000 characters as text, flagged sourceTruncated", async () => {
    const full = n8nMcpText(STAND_IN_WORKFLOWS.huge);
    expect(full.length).toBeGreaterThan(1_000_000);
    const sent = `${full.slice(0, 999_000)}\n\n${N8N_MCP_CUT_MARKER}`;
    const envelope = envelopeOf(await bounded.call("n8n_get_workflow", { id: "huge" }));
    expect(envelope.responseMeta.artifact).toEqual(
      expectedArtifact(sent, {
        mediaType: "text/plain",
        responseRoot: "/lines",
        primaryPaths: ["/lines"],
        sourceTruncated: true,
      }),
    );
    const lines = sent.split("\n");
    expect(envelope.data).toEqual({
      _summarized: SOURCE_CUT_SUMMARIES,
      sourceTruncated: true,
      note: expect.stringContaining("n8n-mcp cut this result itself"),
      lineCount: lines.length,
      firstLines: lines.slice(0, 20),
    });
    const marker = await query(bounded.call, {
      artifactId: envelope.responseMeta.artifact.id,
      textSearch: { query: "Response truncated due to size limits" },
    });
    expect(marker.response).toEqual([
      expect.objectContaining({ pointer: `/lines/${lines.length - 1}`, offset: 1 }),
    ]);
    expect(marker.responseMeta.sourceTruncated).toBe(true);
  });

  it("passes a small workflow through unchanged", async () => {
    const result = await bounded.call("n8n_get_workflow", { id: "small" });
    expect(result).toEqual({
      content: [{ type: "text", text: n8nMcpText(STAND_IN_WORKFLOWS.small) }],
    });
    expect(textOf(result).length).toBeLessThan(32_768);
  });
});
