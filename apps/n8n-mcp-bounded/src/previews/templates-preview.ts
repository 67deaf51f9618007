import { isRecord, isScalar, pickKeys } from "./json-shapes.js";
import { DEDUPLICATED_KEY, SUMMARIZED_KEY } from "./markers.js";

/** The scalar fields of a template search result kept in its preview, in this order. */
const TEMPLATE_KEYS = ["id", "name", "views", "created"] as const;

/** What the reshaped keys of a templates preview hold (the preview's `_summarized`). */
export const TEMPLATES_SUMMARIES = Object.freeze({
  items:
    "each template as id, name, views, created, nodeCount, nodeTypes; description, author, metadata, nodes at /items",
});

/** Which lists of a templates preview are deduplicated (the preview's `_deduplicated`). */
export const TEMPLATES_DEDUPLICATED = Object.freeze({
  nodeTypes: "each node type of a template once; nodeCount counts all its nodes",
});

/** The distinct node types of a template's nodes, in first-appearance order. */
function distinctNodeTypes(nodes: readonly unknown[]): unknown[] {
  const types = new Set<unknown>();
  for (const node of nodes) types.add(isRecord(node) ? node.type : node);
  return [...types];
}

function summarizeTemplate(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const summary = pickKeys(item, TEMPLATE_KEYS);
  if (Array.isArray(item.nodes)) {
    summary.nodeCount = item.nodes.length;
    summary.nodeTypes = distinctNodeTypes(item.nodes);
  }
  return summary;
}

/**
 * The preview of a `search_templates` result (`{items: [...], total, limit, offset, hasMore,
 * tip}`): `_summarized` and `_deduplicated` first (what is reshaped and what lists each value
 * once), the scalar fields as n8n-mcp sent them (its own paging: `total` templates match, more
 * through the tool's `offset`), `itemCount` (templates in this result), and each template as
 * {id, name, views, created, nodeCount, nodeTypes}: nodeCount counts every node, nodeTypes lists
 * each distinct type once. Undefined when there is no `items` array.
 */
export function createTemplatesPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.items)) return undefined;
  const preview: Record<string, unknown> = {
    [SUMMARIZED_KEY]: TEMPLATES_SUMMARIES,
    [DEDUPLICATED_KEY]: TEMPLATES_DEDUPLICATED,
  };
  for (const [key, value] of Object.entries(document)) {
    if (isScalar(value) && !Object.hasOwn(preview, key)) preview[key] = value;
  }
  preview.itemCount = document.items.length;
  preview.items = document.items.map(summarizeTemplate);
  return preview;
}

/** The pointer of a template list, for primaryPaths. */
export function templatesPaths(document: unknown): string[] {
  return isRecord(document) && Array.isArray(document.items) ? ["/items"] : [];
}
