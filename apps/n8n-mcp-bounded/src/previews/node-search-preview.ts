import { isRecord, isScalar, pickKeys } from "./json-shapes.js";
import { jsonBytes, listWithin, N8N_PREVIEW_BYTES, SUMMARIZED_KEY } from "./markers.js";

const RESULT_KEYS = ["workflowNodeType", "displayName", "category", "relevance"] as const;

/** What the reshaped key of a node search preview holds (the preview's `_summarized`). */
export const NODE_SEARCH_SUMMARIES = Object.freeze({
  results:
    "the first results as workflowNodeType, displayName, category, relevance; nodeType, description, package at /results",
});

/**
 * The preview of a `search_nodes` result (`{query, results: [...], totalCount}`): `_summarized`
 * first, the scalar fields as n8n-mcp sent them, `resultCount` (results in this answer), and the
 * first results as {workflowNodeType, displayName, category, relevance} within N8N_PREVIEW_BYTES,
 * then `{"_omittedItems": n}`. Undefined when there is no `results` array.
 */
export function createNodeSearchPreview(document: unknown): unknown {
  if (!isRecord(document) || !Array.isArray(document.results)) return undefined;
  const preview: Record<string, unknown> = { [SUMMARIZED_KEY]: NODE_SEARCH_SUMMARIES };
  for (const [key, value] of Object.entries(document)) {
    if (isScalar(value) && !Object.hasOwn(preview, key)) preview[key] = value;
  }
  preview.resultCount = document.results.length;
  preview.results = listWithin(
    document.results.map((result) => (isRecord(result) ? pickKeys(result, RESULT_KEYS) : result)),
    N8N_PREVIEW_BYTES - jsonBytes(preview) - '"results":,'.length,
  );
  return preview;
}

/** The pointer of a node search's results, for primaryPaths. */
export function nodeSearchPaths(document: unknown): string[] {
  return isRecord(document) && Array.isArray(document.results) ? ["/results"] : [];
}
