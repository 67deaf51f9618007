import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { describe, expect, it } from "vitest";
import { createQueryToolDescription } from "../src/query-tool/description.js";
import { createTestAdapter } from "./support/harness.js";

describe("the queryToolNote option", () => {
  it("appends an app's worked example to the query tool's description and changes nothing else", async () => {
    const plain = createTestAdapter();
    const noted = createTestAdapter({ queryToolNote: 'Example: {"objectMode": "entries"}.' });
    expect(noted.queryTool).toEqual({
      ...plain.queryTool,
      description: `${createQueryToolDescription(24 * 60 * 60 * 1000, true)} Example: {"objectMode": "entries"}.`,
    });
    expect(noted.queryTool.name).toBe(QUERY_TOOL_NAME);
    await Promise.all([plain.dispose(), noted.dispose()]);
  });
});
