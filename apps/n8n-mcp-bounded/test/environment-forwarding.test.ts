import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BoundedConnection,
  connectBounded,
  testEnvironment,
} from "./support/connect-bounded.js";

let bounded: BoundedConnection;

beforeAll(async () => {
  bounded = await connectBounded("claude-code", {
    environment: testEnvironment({
      DISABLED_TOOLS: "search_templates,get_template",
      MCP_RESPONSE_INLINE_BYTES: "65536",
    }),
  });
});

afterAll(async () => {
  await bounded?.close();
});

describe("the environment of n8n-mcp-bounded", () => {
  it("reaches n8n-mcp (DISABLED_TOOLS hides its tools) while MCP_RESPONSE_* tunes the adapter", async () => {
    const names = (await bounded.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      "tools_documentation",
      "search_nodes",
      "get_node",
      "validate_node",
      "validate_workflow",
      QUERY_TOOL_NAME,
    ]);
    expect(bounded.app.bounded.settings.limits.inlineBytes).toBe(65_536);
  });
});
