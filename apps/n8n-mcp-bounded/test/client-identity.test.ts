import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type JsonSchema, rewriteOutputSchema } from "@bounded-mcp/mcp-adapter";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BoundedConnection,
  connectBounded,
  connectDirect,
} from "./support/connect-bounded.js";

const N8N_CLIENT = "n8n-workflow-builder";
const OTHER_CLIENT = "claude-code";

let n8nBounded: BoundedConnection;
let otherBounded: BoundedConnection;
let n8nDirect: Client;
let otherDirect: Client;

beforeAll(async () => {
  [n8nBounded, otherBounded, n8nDirect, otherDirect] = await Promise.all([
    connectBounded(N8N_CLIENT),
    connectBounded(OTHER_CLIENT),
    connectDirect(N8N_CLIENT),
    connectDirect(OTHER_CLIENT),
  ]);
});

afterAll(async () => {
  await Promise.all([
    n8nBounded?.close(),
    otherBounded?.close(),
    n8nDirect?.close(),
    otherDirect?.close(),
  ]);
});

async function upstreamTools(client: Client): Promise<Tool[]> {
  const { tools } = await client.listTools();
  return tools.filter((tool) => tool.name !== QUERY_TOOL_NAME);
}

/**
 * n8n-mcp's tools as the relay lists them: unchanged, except that an outputSchema (validate_*)
 * is widened to admit the bounded envelope (the relay's one documented tools/list change).
 */
function asRelayed(tools: Tool[]): Tool[] {
  return tools.map((tool) =>
    tool.outputSchema === undefined
      ? tool
      : {
          ...tool,
          outputSchema: rewriteOutputSchema(
            tool.outputSchema as JsonSchema,
          ) as Tool["outputSchema"],
        },
  );
}

describe("the downstream client's identity reaches n8n-mcp", () => {
  it("shows a client whose name contains n8n the tool descriptions n8n-mcp gives it directly", async () => {
    const [bounded, direct] = await Promise.all([
      upstreamTools(n8nBounded.client),
      upstreamTools(n8nDirect),
    ]);
    expect(bounded).toEqual(asRelayed(direct));
    expect(direct.some((tool) => tool.outputSchema !== undefined)).toBe(true);
  });

  it("shows another client its own descriptions, which differ from the n8n client's", async () => {
    const [bounded, direct, n8n] = await Promise.all([
      upstreamTools(otherBounded.client),
      upstreamTools(otherDirect),
      upstreamTools(n8nDirect),
    ]);
    expect(bounded).toEqual(asRelayed(direct));
    expect(bounded.map((tool) => tool.description)).not.toEqual(
      n8n.map((tool) => tool.description),
    );
  });

  it("lists n8n-mcp's tools in its order, then query_response_artifact", async () => {
    const names = (await n8nBounded.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      ...(await upstreamTools(n8nDirect)).map((tool) => tool.name),
      QUERY_TOOL_NAME,
    ]);
    expect(n8nBounded.client.getServerVersion()).toEqual(n8nDirect.getServerVersion());
  });
});
