import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEYS } from "../../test/support/connect-bounded.js";
import { generateWorkflow } from "../../test/support/generate-workflow.js";
import { createN8nPreviewHook, N8N_PREVIEWERS } from "./n8n-preview-hook.js";

const PREVIEW_BYTES = 2048;
const TOOLS = Object.keys(N8N_PREVIEWERS);

let bounded: BoundedMcp;

beforeAll(() => {
  bounded = createBoundedMcp({
    environment: {},
    keys: TEST_KEYS,
    inlineBytes: 4096,
    previewBytes: PREVIEW_BYTES,
    clock: () => 1_700_000_000_000,
    preview: createN8nPreviewHook(),
  });
});

afterAll(async () => {
  await bounded?.dispose();
});

/** Bounds `document` as n8n-mcp sends it (pretty-printed text) and returns the envelope text. */
async function boundAsN8nMcp(toolName: string, document: unknown): Promise<string> {
  const result: CallToolResult = {
    content: [{ type: "text", text: JSON.stringify(document, null, 2) }],
  };
  const output = await bounded.boundResult(result, { toolName });
  const [first] = output.content;
  if (first?.type !== "text") throw new Error("no text block");
  return first.text;
}

/** A wide cycle: every node feeds the next and the last feeds the first, in several types. */
function cyclicWorkflow(nodeCount: number) {
  const { connections: _chain, ...workflow } = generateWorkflow({ id: "cycle", nodeCount });
  const connections: Record<string, unknown> = {};
  for (const [index, node] of workflow.nodes.entries()) {
    const next = workflow.nodes[(index + 1) % nodeCount]?.name ?? "";
    connections[node.name] = {
      main: [
        [{ node: next, type: "main", index: 0 }],
        [{ node: node.name, type: "main", index: 1 }],
      ],
      ai_tool: [[{ node: next, type: "ai_tool", index: 0 }]],
    };
  }
  return { ...workflow, connections };
}

/** n8n-ish values with missing fields and wrong types where previews look. */
const looseValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);
const looseRecord = fc.dictionary(
  fc.constantFrom(
    "id",
    "name",
    "type",
    "typeVersion",
    "disabled",
    "node",
    "index",
    "nodes",
    "operation",
    "resource",
    "value",
    "displayOptions",
    "show",
    "hide",
    "main",
    "__proto__",
    "constructor",
  ),
  fc.oneof(looseValue, fc.array(looseValue, { maxLength: 3 })),
  { maxKeys: 8 },
);
const looseCollection = fc.oneof(
  looseValue,
  fc.array(fc.oneof(looseRecord, looseValue, fc.array(looseRecord, { maxLength: 3 })), {
    maxLength: 40,
  }),
  fc.dictionary(
    fc.string({ maxLength: 8 }),
    fc.oneof(looseRecord, fc.dictionary(fc.string({ maxLength: 5 }), fc.array(looseValue))),
    { maxKeys: 10 },
  ),
);
const looseDocument = fc.record(
  {
    success: looseValue,
    data: fc.oneof(
      looseValue,
      fc.record(
        {
          nodes: looseCollection,
          connections: looseCollection,
          executions: looseCollection,
          workflow: fc.record({ nodes: looseCollection, connections: looseCollection }),
        },
        { requiredKeys: [] },
      ),
    ),
    properties: looseCollection,
    operations: looseCollection,
    credentials: looseCollection,
    items: looseCollection,
    padding: fc.constant("x".repeat(5000)),
  },
  { requiredKeys: ["padding"] },
);

describe("the n8n previews on hostile and huge payloads", () => {
  it("never throw and stay deterministic within previewBytes for missing fields and wrong types", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), looseDocument, async (toolName, document) => {
        const first = await boundAsN8nMcp(toolName, document);
        expect(Buffer.byteLength(first)).toBeLessThanOrEqual(PREVIEW_BYTES);
        expect(JSON.parse(first)).toMatchObject({ responseMeta: { truncated: true } });
        expect(await boundAsN8nMcp(toolName, document)).toBe(first);
      }),
      { numRuns: 150, seed: 8 },
    );
  });

  it("bound a 5,000-node workflow with cyclic connections within previewBytes, the same twice", async () => {
    const document = { success: true, data: cyclicWorkflow(5000) };
    const first = await boundAsN8nMcp("n8n_get_workflow", document);
    const envelope = JSON.parse(first);
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(PREVIEW_BYTES);
    expect(envelope.responseMeta.artifact.primaryPaths).toEqual([
      "/data/nodes",
      "/data/connections",
    ]);
    expect(envelope.data).toMatchObject({ nodeCount: 5000, edgeCount: 15_000 });
    expect(await boundAsN8nMcp("n8n_get_workflow", document)).toBe(first);
  });

  it("bound 5,000 templates, properties and executions within previewBytes", async () => {
    const many = Array.from({ length: 5000 }, (_, index) => index);
    const documents: [string, unknown][] = [
      [
        "search_templates",
        {
          items: [
            { id: -1, name: "every node type", nodes: many.map((n) => `type-${n}`) },
            ...many.map((id) => ({ id, name: `t${id}`, nodes: [`type-${id % 50}`, "webhook"] })),
          ],
        },
      ],
      [
        "get_node",
        {
          nodeType: "n8n-nodes-base.big",
          properties: many.map((n) => ({
            name: `p${n}`,
            type: "string",
            displayOptions: { show: { resource: [`r${n % 7}`], operation: [`o${n}`] } },
          })),
          operations: many.map((n) => ({ resource: `r${n % 7}`, operation: `o${n}` })),
        },
      ],
      [
        "n8n_executions",
        { success: true, data: { executions: many.map((id) => ({ id, status: "success" })) } },
      ],
    ];
    for (const [toolName, document] of documents) {
      const text = await boundAsN8nMcp(toolName, document);
      expect({ toolName, fits: Buffer.byteLength(text) <= PREVIEW_BYTES }).toEqual({
        toolName,
        fits: true,
      });
    }
  });
});
