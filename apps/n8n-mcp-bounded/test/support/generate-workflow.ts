/** Options of {@link generateWorkflow}. */
export interface GeneratedWorkflowOptions {
  id: string;
  nodeCount: number;
  /** Characters of JavaScript in each Code node's parameters (makes the workflow heavy). */
  codeChars?: number;
}

const TRIGGER = "Webhook";

/** The name of node `index` of a generated workflow; node 0 is the trigger "Webhook". */
export function generatedNodeName(index: number): string {
  return index === 0 ? TRIGGER : `Step ${String(index).padStart(4, "0")}`;
}

function node(index: number, codeChars: number) {
  const kind = index === 0 ? "webhook" : index % 10 === 0 ? "if" : "code";
  const type = {
    webhook: "n8n-nodes-base.webhook",
    if: "n8n-nodes-base.if",
    code: "n8n-nodes-base.code",
  }[kind];
  return {
    id: `node-${index}`,
    name: generatedNodeName(index),
    type,
    typeVersion: kind === "if" ? 2 : 1,
    position: [index * 220, (index % 5) * 120],
    ...(index % 25 === 7 ? { disabled: true } : {}),
    parameters:
      kind === "code"
        ? {
            jsCode: `// step ${index}\n${"return items.map((item) => item);\n".repeat(1 + Math.floor(codeChars / 36))}`,
          }
        : kind === "if"
          ? {
              conditions: {
                number: [{ value1: "={{$json.count}}", operation: "larger", value2: index }],
              },
            }
          : { path: "incoming", httpMethod: "POST" },
  };
}

/**
 * A deterministic n8n workflow as the public API returns it: a Webhook trigger, then a chain of
 * Code nodes with an IF node every 10th step (its true output feeds the next node, its false output
 * the node after that). Node `index % 25 === 7` is disabled. Edges: nodeCount - 1 on the chain
 * plus one per IF node that has a node two steps on.
 */
export function generateWorkflow(options: GeneratedWorkflowOptions) {
  const { id, nodeCount } = options;
  const codeChars = options.codeChars ?? 40;
  const nodes = Array.from({ length: nodeCount }, (_, index) => node(index, codeChars));
  const connections: Record<string, { main: { node: string; type: string; index: number }[][] }> =
    {};
  for (let index = 0; index < nodeCount - 1; index++) {
    const next = { node: generatedNodeName(index + 1), type: "main", index: 0 };
    const isIf = index > 0 && index % 10 === 0;
    const skip =
      isIf && index + 2 < nodeCount
        ? [{ node: generatedNodeName(index + 2), type: "main", index: 0 }]
        : [];
    connections[generatedNodeName(index)] = { main: isIf ? [[next], skip] : [[next]] };
  }
  return {
    id,
    name: `Generated workflow ${id} (${nodeCount} nodes)`,
    active: false,
    isArchived: false,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-02T00:00:00.000Z",
    versionId: `version-${id}`,
    nodes,
    connections,
    settings: { executionOrder: "v1" },
    staticData: null,
    tags: [{ id: "tag-1", name: "generated" }],
  };
}

const STATUSES = ["success", "error", "success", "waiting"] as const;

/** `count` deterministic executions of `workflowId`, newest first, as the public API lists them. */
export function generateExecutions(workflowId: string, count: number) {
  return Array.from({ length: count }, (_, index) => {
    const started = Date.parse("2026-01-01T00:00:00.000Z") + (count - index) * 60_000;
    return {
      id: String(10_000 + count - index),
      workflowId,
      status: STATUSES[index % STATUSES.length],
      mode: index % 3 === 0 ? "webhook" : "trigger",
      finished: STATUSES[index % STATUSES.length] !== "waiting",
      retryOf: null,
      retrySuccessId: null,
      startedAt: new Date(started).toISOString(),
      stoppedAt: new Date(started + 1_500).toISOString(),
      waitTill: null,
      customData: { batch: `batch-${index % 7}`, note: "generated execution ".repeat(8) },
    };
  });
}
