import { isRecord } from "./json-shapes.js";

/** What n8n-mcp appends when it cuts a result over 1,000,000 characters (at 999,000). */
export const N8N_MCP_CUT_MARKER = "[Response truncated due to size limits]";

/** Lines of the cut text shown in its preview. */
export const CUT_PREVIEW_LINES = 20;

/**
 * Whether a text document (`{"lines": [...]}`, how the adapter stores text) ends with n8n-mcp's
 * own cut marker: the JSON before it is broken, so the payload was stored as text.
 */
export function isCutByN8nMcp(document: unknown): boolean {
  if (!isRecord(document) || !Array.isArray(document.lines)) return false;
  return document.lines.at(-1) === N8N_MCP_CUT_MARKER;
}

/**
 * The preview of a result n8n-mcp cut itself: what happened, how many lines were kept, and the
 * first 20 lines. The stored text is what n8n-mcp sent; nothing after its cut can be recovered.
 */
export function createSourceCutPreview(document: { lines: readonly string[] }): unknown {
  return {
    sourceTruncated: true,
    note: `n8n-mcp cut this result itself at 999,000 characters, so it is not valid JSON; it is stored as text (query /lines or use textSearch). Ask n8n-mcp for less (a mode, a filter, a smaller limit) to get the whole result.`,
    lineCount: document.lines.length,
    firstLines: document.lines.slice(0, CUT_PREVIEW_LINES),
  };
}
