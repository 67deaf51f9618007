import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../test/support/generate-workflow.js";
import { N8N_PREVIEW_BYTES } from "./markers.js";
import {
  createWorkflowPreview,
  listWorkflowEdges,
  MAX_PREVIEW_EDGES,
  WORKFLOW_SUMMARIES,
  workflowPaths,
} from "./workflow-preview.js";

const CONNECTIONS = {
  Webhook: { main: [[{ node: "IF", type: "main", index: 0 }]] },
  IF: {
    main: [
      [{ node: "Slack", type: "main", index: 0 }],
      [
        { node: "Merge", type: "main", index: 1 },
        { node: "Log", type: "main", index: 0 },
      ],
    ],
  },
  "OpenAI Model": { ai_languageModel: [[{ node: "Agent", type: "ai_languageModel", index: 0 }]] },
  Broken: { main: [null, [{ type: "main" }]] },
};

describe("listWorkflowEdges", () => {
  it("flattens n8n's keyed connections into {from, to, type, output, index} edges in key order", () => {
    expect(listWorkflowEdges(CONNECTIONS)).toEqual({
      total: 5,
      edges: [
        { from: "Webhook", to: "IF", type: "main", output: 0, index: 0 },
        { from: "IF", to: "Slack", type: "main", output: 0, index: 0 },
        { from: "IF", to: "Merge", type: "main", output: 1, index: 1 },
        { from: "IF", to: "Log", type: "main", output: 1, index: 0 },
        { from: "OpenAI Model", to: "Agent", type: "ai_languageModel", output: 0, index: 0 },
      ],
    });
  });

  it("lists at most 400 edges and counts them all", () => {
    const workflow = generateWorkflow({ id: "wide", nodeCount: 500 });
    const { edges, total } = listWorkflowEdges(workflow.connections);
    expect(total).toBe(499 + 49);
    expect(edges).toHaveLength(MAX_PREVIEW_EDGES);
    expect(edges[0]).toEqual({
      from: "Webhook",
      to: "Step 0001",
      type: "main",
      output: 0,
      index: 0,
    });
  });

  it("finds no edges in anything but an object", () => {
    expect(listWorkflowEdges([1, 2])).toEqual({ edges: [], total: 0 });
    expect(listWorkflowEdges(undefined)).toEqual({ edges: [], total: 0 });
  });
});

describe("createWorkflowPreview", () => {
  it("summarises n8n_get_workflow: scalars, counts, nodes as id/name/type/typeVersion/disabled, edges", () => {
    const workflow = generateWorkflow({ id: "w1", nodeCount: 5 });
    const preview = createWorkflowPreview({ success: true, data: workflow });
    expect(preview).toEqual({
      _summarized: WORKFLOW_SUMMARIES,
      nodeCount: 5,
      edgeCount: 4,
      id: "w1",
      name: "Generated workflow w1 (5 nodes)",
      active: false,
      isArchived: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-02T00:00:00.000Z",
      versionId: "version-w1",
      staticData: null,
      otherKeys: ["settings", "tags"],
      nodes: workflow.nodes.map((node) => ({
        id: node.id,
        name: node.name,
        type: node.type,
        typeVersion: node.typeVersion,
        disabled: false,
      })),
      edges: listWorkflowEdges(workflow.connections).edges,
    });
  });

  it("lists the first nodes and edges within 2 KiB, each list ended by {_omittedItems: n}", () => {
    const workflow = generateWorkflow({ id: "w5", nodeCount: 450 });
    const preview = createWorkflowPreview({ success: true, data: workflow }) as {
      edgeCount: number;
      nodes: unknown[];
      edges: unknown[];
    };
    const { edges, total } = listWorkflowEdges(workflow.connections);
    expect(total).toBeGreaterThan(MAX_PREVIEW_EDGES);
    expect(preview.edgeCount).toBe(total);
    const listedNodes = preview.nodes.length - 1;
    const listedEdges = preview.edges.length - 1;
    expect(listedNodes).toBeGreaterThan(3);
    expect(listedEdges).toBeGreaterThan(3);
    expect(preview.nodes.at(-1)).toEqual({ _omittedItems: 450 - listedNodes });
    expect(preview.edges).toEqual([
      ...edges.slice(0, listedEdges),
      { _omittedItems: total - listedEdges },
    ]);
    expect(Buffer.byteLength(JSON.stringify(preview))).toBeLessThanOrEqual(N8N_PREVIEW_BYTES);
  });

  it("reads the workflow of details mode under data.workflow", () => {
    const workflow = generateWorkflow({ id: "w2", nodeCount: 3 });
    const document = { success: true, data: { workflow, executionStats: { totalExecutions: 0 } } };
    expect(createWorkflowPreview(document)).toEqual(
      createWorkflowPreview({ success: true, data: workflow }),
    );
    expect(workflowPaths(document)).toEqual(["/data/workflow/nodes", "/data/workflow/connections"]);
  });

  it("leaves other payloads to the generic preview", () => {
    expect(createWorkflowPreview({ success: false, error: "Not Found" })).toBeUndefined();
    expect(createWorkflowPreview({ success: true, data: { id: "x" } })).toBeUndefined();
    expect(createWorkflowPreview("text")).toBeUndefined();
    expect(workflowPaths({ success: true, data: { id: "x" } })).toEqual([]);
  });

  it("points primaryPaths at the nodes and the connections", () => {
    const workflow = generateWorkflow({ id: "w3", nodeCount: 3 });
    expect(workflowPaths({ success: true, data: workflow })).toEqual([
      "/data/nodes",
      "/data/connections",
    ]);
    expect(workflowPaths({ success: true, data: { workflow } })).toEqual([
      "/data/workflow/nodes",
      "/data/workflow/connections",
    ]);
  });

  it("points primaryPaths only at what exists: no connections path without a keyed object", () => {
    const { connections: _connections, ...bare } = generateWorkflow({ id: "w4", nodeCount: 3 });
    expect(
      [
        { success: true, data: bare },
        { success: true, data: { ...bare, connections: [] } },
        { success: true, data: { nodes: "not a list" } },
        { success: false, error: "not found" },
      ].map(workflowPaths),
    ).toEqual([["/data/nodes"], ["/data/nodes"], [], []]);
  });
});
