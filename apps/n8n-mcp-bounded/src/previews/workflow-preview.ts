import { isRecord, isScalar, pickKeys } from "./json-shapes.js";
import { jsonBytes, listWithin, N8N_PREVIEW_BYTES, SUMMARIZED_KEY } from "./markers.js";

/** One connection of an n8n workflow: output `output` of `from` feeds input `index` of `to`. */
export interface WorkflowEdge {
  from: string;
  to: string;
  /** The connection type: "main", or an AI type such as "ai_tool" or "ai_languageModel". */
  type: string;
  /** The source node's output index. */
  output: number;
  /** The target node's input index. */
  index: number;
}

/** At most this many edges are listed in a workflow preview (the rest are counted). */
export const MAX_PREVIEW_EDGES = 400;

const NODE_KEYS = ["id", "name", "type", "typeVersion"] as const;

function summarizeNode(node: unknown): unknown {
  if (!isRecord(node)) return node;
  return { ...pickKeys(node, NODE_KEYS), disabled: node.disabled === true };
}

/**
 * Flattens n8n's keyed `connections` object (`{source: {type: [[{node, type, index}]]}}`) into
 * edges, in key order, stopping after `limit`; `total` counts every edge. Malformed entries are
 * skipped, never guessed.
 */
export function listWorkflowEdges(
  connections: unknown,
  limit: number = MAX_PREVIEW_EDGES,
): { edges: WorkflowEdge[]; total: number } {
  const edges: WorkflowEdge[] = [];
  let total = 0;
  if (!isRecord(connections)) return { edges, total };
  for (const [from, byType] of Object.entries(connections)) {
    if (!isRecord(byType)) continue;
    for (const [type, outputs] of Object.entries(byType)) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((targets, output) => {
        if (!Array.isArray(targets)) return;
        for (const target of targets) {
          if (!isRecord(target) || typeof target.node !== "string") continue;
          total++;
          if (edges.length < limit) {
            const index = typeof target.index === "number" ? target.index : 0;
            edges.push({ from, to: target.node, type, output, index });
          }
        }
      });
    }
  }
  return { edges, total };
}

function findWorkflow(data: unknown): Record<string, unknown> | undefined {
  if (!isRecord(data)) return undefined;
  if (Array.isArray(data.nodes)) return data;
  if (isRecord(data.workflow) && Array.isArray(data.workflow.nodes)) return data.workflow;
  return undefined;
}

/** What the reshaped keys of a workflow preview hold (the preview's `_summarized`). */
export const WORKFLOW_SUMMARIES = Object.freeze({
  nodes:
    "each node as id, name, type, typeVersion, disabled; parameters, credentials, position in the artifact",
  edges:
    "connections flattened, first 400 (edgeCount counts all); the keyed connections object in the artifact",
  otherKeys: "names of the other non-scalar keys, in the artifact",
});

/** Share of the room left after the fixed parts that the node list may take (edges get the rest). */
const NODES_SHARE = 0.6;

function summarizeWorkflow(workflow: Record<string, unknown>): Record<string, unknown> {
  const nodes = workflow.nodes as unknown[];
  const { edges, total } = listWorkflowEdges(workflow.connections);
  const summary: Record<string, unknown> = {
    [SUMMARIZED_KEY]: WORKFLOW_SUMMARIES,
    nodeCount: nodes.length,
    edgeCount: total,
  };
  const otherKeys: string[] = [];
  for (const [key, value] of Object.entries(workflow)) {
    if (key === "nodes" || key === "connections" || Object.hasOwn(summary, key)) continue;
    if (isScalar(value)) summary[key] = value;
    else otherKeys.push(key);
  }
  if (otherKeys.length > 0) summary.otherKeys = otherKeys;
  const room = N8N_PREVIEW_BYTES - jsonBytes(summary) - '"nodes":,"edges":,'.length;
  summary.nodes = listWithin(nodes.map(summarizeNode), Math.floor(room * NODES_SHARE));
  summary.edges = listWithin(edges, room - jsonBytes(summary.nodes), { total });
  return summary;
}

/**
 * The preview of an `n8n_get_workflow` result (`{success, data: workflow}`, or `data.workflow` in
 * details mode): `_summarized` first (what the reshaped keys hold), the counts, the workflow's
 * scalar fields, the names of the other (non-scalar) keys, then the first nodes as {id, name,
 * type, typeVersion, disabled} and the first connections as `edges` {from, to, type, output,
 * index}, within N8N_PREVIEW_BYTES (nodes take at most 60% of what is left), each list ended by
 * `{"_omittedItems": n}` when cut. The envelope already carries `success`, so the preview
 * is the workflow summary itself. Undefined when the payload holds no workflow, so the generic
 * preview is used. Deterministic: input order is kept, nothing is sorted or timed.
 */
export function createWorkflowPreview(document: unknown): unknown {
  if (!isRecord(document)) return undefined;
  const workflow = findWorkflow(document.data);
  return workflow === undefined ? undefined : summarizeWorkflow(workflow);
}

/**
 * The pointers of a workflow payload's nodes and (when it is n8n's keyed object) connections, for
 * primaryPaths: only pointers that resolve in the stored document.
 */
export function workflowPaths(document: unknown): string[] {
  if (!isRecord(document)) return [];
  const workflow = findWorkflow(document.data);
  if (workflow === undefined) return [];
  const base = workflow === document.data ? "/data" : "/data/workflow";
  return isRecord(workflow.connections)
    ? [`${base}/nodes`, `${base}/connections`]
    : [`${base}/nodes`];
}
