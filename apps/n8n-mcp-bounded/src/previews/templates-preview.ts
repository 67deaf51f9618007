import { isRecord, isScalar, pickKeys } from "./json-shapes.js";
import { jsonBytes, listWithin, N8N_PREVIEW_BYTES, SUMMARIZED_KEY } from "./markers.js";

/** The scalar fields of a template search result kept in its preview, in this order. */
const TEMPLATE_KEYS = ["id", "name", "views", "created"] as const;

/** What the reshaped keys of a templates preview hold (the preview's `_summarized`). */
export const TEMPLATES_SUMMARIES = Object.freeze({
  items:
    "the first templates as id, name, views, created, nodeCount (all its nodes); nodes, author, metadata at /items",
});

function summarizeTemplate(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const summary = pickKeys(item, TEMPLATE_KEYS);
  if (Array.isArray(item.nodes)) summary.nodeCount = item.nodes.length;
  return summary;
}

/**
 * The preview of a `search_templates` result (`{items: [...], total, limit, offset, hasMore,
 * tip}`): `_summarized` first (what the items hold), the scalar fields as n8n-mcp sent them (its
 * own paging: `total` templates match, more through the tool's `offset`), `itemCount`
 * (templates in this result), and the first templates as {id, name, views, created, nodeCount}
 * within N8N_PREVIEW_BYTES, then `{"_omittedItems": n}`. nodeCount counts every node of a
 * template (duplicates included); the node types themselves are queried at /items/<i>/nodes, so
 * no deduplicated list can pass for them. Undefined when there is no `items` array.
 */
export function createTemplatesPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.items)) return undefined;
  const preview: Record<string, unknown> = { [SUMMARIZED_KEY]: TEMPLATES_SUMMARIES };
  for (const [key, value] of Object.entries(document)) {
    if (isScalar(value) && !Object.hasOwn(preview, key)) preview[key] = value;
  }
  preview.itemCount = document.items.length;
  preview.items = listWithin(
    document.items.map(summarizeTemplate),
    N8N_PREVIEW_BYTES - jsonBytes(preview) - '"items":,'.length,
  );
  return preview;
}

/** The pointer of a template list, for primaryPaths. */
export function templatesPaths(document: unknown): string[] {
  return isRecord(document) && Array.isArray(document.items) ? ["/items"] : [];
}
