import { isRecord, isScalar } from "./json-shapes.js";

/** The distinct node types of a template, in first-appearance order. */
function distinctNodeTypes(nodes: unknown): unknown {
  if (!Array.isArray(nodes)) return nodes;
  const types = new Set<unknown>();
  for (const node of nodes) types.add(isRecord(node) ? node.type : node);
  return [...types];
}

/**
 * The preview of a `search_templates` result (`{items: [...], total, limit, offset, hasMore}`):
 * the scalar fields (counts, n8n's paging hints), the number of items, and each item as {id,
 * name, nodes} with its distinct node types. Undefined when there is no `items` array.
 */
export function createTemplatesPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.items)) return undefined;
  const preview: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (isScalar(value)) preview[key] = value;
  }
  preview.itemCount = document.items.length;
  preview.items = document.items.map((item) =>
    isRecord(item) ? { id: item.id, name: item.name, nodes: distinctNodeTypes(item.nodes) } : item,
  );
  return preview;
}

/** The pointer of a template list, for primaryPaths. */
export function templatesPaths(document: unknown): string[] {
  return isRecord(document) && Array.isArray(document.items) ? ["/items"] : [];
}
