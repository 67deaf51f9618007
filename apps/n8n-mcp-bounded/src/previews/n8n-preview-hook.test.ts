import { createPreviewOverride } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { describe, expect, it } from "vitest";
import { generateWorkflow } from "../../test/support/generate-workflow.js";
import { createN8nPreviewHook } from "./n8n-preview-hook.js";
import { createNodeSchemaPreview } from "./node-schema-preview.js";
import { createSourceCutPreview, N8N_MCP_CUT_AT, N8N_MCP_CUT_MARKER } from "./source-cut.js";
import { createWorkflowPreview } from "./workflow-preview.js";

const hook = createN8nPreviewHook();
const workflowDocument = { success: true, data: generateWorkflow({ id: "h", nodeCount: 6 }) };

describe("the n8n preview hook", () => {
  it("gives n8n_get_workflow its preview and primaryPaths at the nodes and connections", () => {
    const answer = hook({
      toolName: "n8n_get_workflow",
      document: workflowDocument,
      mediaType: "application/json",
    });
    expect(answer).toEqual(
      createPreviewOverride({
        preview: createWorkflowPreview(workflowDocument),
        primaryPaths: ["/data/nodes", "/data/connections"],
      }),
    );
  });

  it("gives get_node its preview, primaryPaths and the /properties responseRoot", () => {
    const document = {
      nodeType: "nodes-base.example",
      properties: Array.from({ length: 6 }, (_, index) => ({ name: `p${index}`, type: "string" })),
      operations: [{ operation: "get", resource: "page" }],
    };
    expect(hook({ toolName: "get_node", document, mediaType: "application/json" })).toEqual(
      createPreviewOverride({
        preview: createNodeSchemaPreview(document),
        primaryPaths: ["/properties", "/operations"],
        responseRoot: "/properties",
      }),
    );
  });

  it("flags text ending with n8n-mcp's cut marker as sourceTruncated, whatever the tool", () => {
    const pretty = `{\n${'  "success": true,\n'.repeat(60_000)}}`;
    const sent = `${pretty.slice(0, N8N_MCP_CUT_AT)}\n\n${N8N_MCP_CUT_MARKER}`;
    const document = { lines: sent.split("\n") };
    const answer = hook({ toolName: "n8n_list_workflows", document, mediaType: "text/plain" });
    expect(answer).toEqual(
      createPreviewOverride({
        preview: createSourceCutPreview(document),
        sourceTruncated: true,
      }),
    );
  });

  it("leaves other tools, other shapes, other text and inherited names to the generic preview", () => {
    const cases = [
      { toolName: "n8n_list_workflows", document: workflowDocument, mediaType: "application/json" },
      { toolName: "get_node", document: { nodeType: "x" }, mediaType: "application/json" },
      { toolName: "tools_documentation", document: { lines: ["# Docs"] }, mediaType: "text/plain" },
      {
        toolName: "tools_documentation",
        document: { lines: ["# Limits", "", N8N_MCP_CUT_MARKER] },
        mediaType: "text/plain",
      },
      { toolName: "toString", document: workflowDocument, mediaType: "application/json" },
      { toolName: "__proto__", document: workflowDocument, mediaType: "application/json" },
      { toolName: undefined, document: workflowDocument, mediaType: "application/json" },
    ] as const;
    expect(cases.map((input) => hook(input))).toEqual(cases.map(() => undefined));
  });

  it("falls back to the generic preview, with one warning, when a previewer throws", () => {
    const logger = createRecordingLogger();
    const guarded = createN8nPreviewHook({ logger });
    const hostile = {
      success: true,
      data: {
        get nodes(): unknown {
          throw new Error("unreadable nodes");
        },
      },
    };
    const answer = guarded({
      toolName: "n8n_get_workflow",
      document: hostile,
      mediaType: "application/json",
    });
    expect({ answer, records: logger.records }).toEqual({
      answer: undefined,
      records: [
        {
          level: "warn",
          message: "the n8n preview failed; the generic preview is used",
          fields: { tool: "n8n_get_workflow", error: "unreadable nodes" },
        },
      ],
    });
  });
});
