import { describe, expect, it } from "vitest";
import { createSourceCutPreview, isCutByN8nMcp, N8N_MCP_CUT_MARKER } from "./source-cut.js";

describe("n8n-mcp's own cut", () => {
  it("is recognised by the marker n8n-mcp puts on the last line", () => {
    expect(isCutByN8nMcp({ lines: ["{", '  "a": 1', "", N8N_MCP_CUT_MARKER] })).toBe(true);
    expect(isCutByN8nMcp({ lines: ["{", N8N_MCP_CUT_MARKER, "}"] })).toBe(false);
    expect(isCutByN8nMcp({ nodes: [] })).toBe(false);
  });

  it("is previewed as a note, the line count and the first 20 lines", () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, index) => `line ${index}`),
      N8N_MCP_CUT_MARKER,
    ];
    expect(createSourceCutPreview({ lines })).toEqual({
      sourceTruncated: true,
      note: "n8n-mcp cut this result itself at 999,000 characters, so it is not valid JSON; it is stored as text (query /lines or use textSearch). Ask n8n-mcp for less (a mode, a filter, a smaller limit) to get the whole result.",
      lineCount: 31,
      firstLines: lines.slice(0, 20),
    });
  });
});
