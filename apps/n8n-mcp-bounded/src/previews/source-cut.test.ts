import { describe, expect, it } from "vitest";
import {
  createSourceCutPreview,
  isCutByN8nMcp,
  N8N_MCP_CUT_AT,
  N8N_MCP_CUT_MARKER,
  SOURCE_CUT_SUMMARIES,
} from "./source-cut.js";

/** What n8n-mcp sends for a result over 1,000,000 characters, as the adapter stores text. */
function cutByN8nMcp(text: string): { lines: string[] } {
  return { lines: `${text.slice(0, N8N_MCP_CUT_AT)}\n\n${N8N_MCP_CUT_MARKER}`.split("\n") };
}

const PRETTY_JSON = `{\n${'  "name": "Webhook",\n'.repeat(50_000)}}`;

describe("n8n-mcp's own cut", () => {
  it("is recognised by its exact shape: 999,000 characters, a blank line, the marker", () => {
    expect(isCutByN8nMcp(cutByN8nMcp(PRETTY_JSON))).toBe(true);
    expect(isCutByN8nMcp(cutByN8nMcp("x".repeat(1_000_001)))).toBe(true);
  });

  it("is not claimed for legitimate text that merely ends with the marker", () => {
    const quoting = {
      lines: ["# What n8n-mcp appends when it cuts", "", N8N_MCP_CUT_MARKER],
    };
    const { lines } = cutByN8nMcp(PRETTY_JSON);
    const oneLonger = { lines: [`${lines[0]}x`, ...lines.slice(1)] };
    const noBlankLine = { lines: [...lines.slice(0, -2), N8N_MCP_CUT_MARKER] };
    expect(
      [quoting, oneLonger, noBlankLine, { lines: ["{", N8N_MCP_CUT_MARKER, "}"] }].map(
        isCutByN8nMcp,
      ),
    ).toEqual([false, false, false, false]);
    expect(
      [{ nodes: [] }, { lines: [1, "", N8N_MCP_CUT_MARKER] }, null, "text"].map(isCutByN8nMcp),
    ).toEqual([false, false, false, false]);
  });

  it("is previewed as a note, the line count and the first 20 lines", () => {
    const lines = [
      ...Array.from({ length: 30 }, (_, index) => `line ${index}`),
      N8N_MCP_CUT_MARKER,
    ];
    expect(createSourceCutPreview({ lines })).toEqual({
      _summarized: SOURCE_CUT_SUMMARIES,
      sourceTruncated: true,
      note: "n8n-mcp cut this result itself at 999,000 characters, so it is not valid JSON; it is stored as text (query /lines or use textSearch). Ask n8n-mcp for less (a mode, a filter, a smaller limit) to get the whole result.",
      lineCount: 31,
      firstLines: lines.slice(0, 20),
    });
  });
});
