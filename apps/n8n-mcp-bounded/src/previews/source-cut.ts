import { isRecord } from "./json-shapes.js";
import { SUMMARIZED_KEY } from "./markers.js";

/** What n8n-mcp appends when it cuts a result over 1,000,000 characters (at 999,000). */
export const N8N_MCP_CUT_MARKER = "[Response truncated due to size limits]";

/** Lines of the cut text shown in its preview. */
export const CUT_PREVIEW_LINES = 20;

/** Where n8n-mcp cuts (in UTF-16 code units, `substring(0, 999000)`), before adding the marker. */
export const N8N_MCP_CUT_AT = 999_000;

/** The exact length of a text n8n-mcp cut: the kept prefix, a blank line, the marker. */
const CUT_TEXT_LENGTH = N8N_MCP_CUT_AT + "\n\n".length + N8N_MCP_CUT_MARKER.length;

function joinedLength(lines: readonly unknown[]): number {
  let length = lines.length - 1;
  for (const line of lines) {
    if (typeof line !== "string") return -1;
    length += line.length;
  }
  return length;
}

/**
 * Whether a text document (`{"lines": [...]}`, how the adapter stores text, split on "\n" only)
 * is what n8n-mcp sends after its own cut: exactly 999,000 characters, a blank line and the
 * marker. The length check keeps a legitimate text that merely ends with the marker line (a
 * document quoting it, say) from being flagged; the JSON before a real cut is broken, so such a
 * payload was stored as text.
 */
export function isCutByN8nMcp(document: unknown): boolean {
  if (!isRecord(document) || !Array.isArray(document.lines)) return false;
  const { lines } = document;
  return (
    lines.at(-1) === N8N_MCP_CUT_MARKER &&
    lines.at(-2) === "" &&
    joinedLength(lines) === CUT_TEXT_LENGTH
  );
}

/** What the reshaped key of a source-cut preview holds (the preview's `_summarized`). */
export const SOURCE_CUT_SUMMARIES = Object.freeze({
  firstLines: "the first 20 of lineCount lines; all at /lines",
});

/**
 * The preview of a result n8n-mcp cut itself: `_summarized`, what happened, how many lines were
 * kept, and the first 20 lines. The stored text is what n8n-mcp sent; nothing after its cut can be recovered.
 */
export function createSourceCutPreview(document: { lines: readonly string[] }): unknown {
  return {
    [SUMMARIZED_KEY]: SOURCE_CUT_SUMMARIES,
    sourceTruncated: true,
    note: `n8n-mcp cut this result itself at 999,000 characters, so it is not valid JSON; it is stored as text (query /lines or use textSearch). Ask n8n-mcp for less (a mode, a filter, a smaller limit) to get the whole result.`,
    lineCount: document.lines.length,
    firstLines: document.lines.slice(0, CUT_PREVIEW_LINES),
  };
}
