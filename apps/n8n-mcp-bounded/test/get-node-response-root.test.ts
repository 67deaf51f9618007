import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE_SCHEMA_SUMMARIES } from "../src/previews/node-schema-preview.js";
import {
  type BoundedConnection,
  connectBounded,
  connectDirect,
} from "./support/connect-bounded.js";
import { envelopeOf, queryAllPages, textOf } from "./support/envelopes.js";

// The nodes whose get_node results the generic analysis rooted differently (/properties for
// Notion and Slack, "" for the others), so one query worked on some and not on others.
const NODES = ["notion", "slack", "zohoCrm", "salesforce", "github", "jira"] as const;

interface NodeProperty {
  name: string;
  type: string;
  required?: boolean;
  default?: unknown;
}

let bounded: BoundedConnection;
let direct: Client;

beforeAll(async () => {
  [bounded, direct] = await Promise.all([
    connectBounded("claude-code"),
    connectDirect("claude-code"),
  ]);
});

afterAll(async () => {
  await Promise.all([bounded?.close(), direct?.close()]);
});

async function rawNode(nodeType: string): Promise<{ properties: NodeProperty[] }> {
  const result = (await direct.callTool({
    name: "get_node",
    arguments: { nodeType, detail: "full" },
  })) as CallToolResult;
  return JSON.parse(textOf(result));
}

describe("one responseRoot for every get_node result (n8n-mcp 2.87.0, real child)", () => {
  it.each(NODES)(
    "roots %s at /properties and answers the same query without responsePath",
    async (name) => {
      const nodeType = `n8n-nodes-base.${name}`;
      const raw = await rawNode(nodeType);
      const envelope = envelopeOf(await bounded.call("get_node", { nodeType, detail: "full" }));
      expect(envelope.responseMeta.artifact.responseRoot).toBe("/properties");
      expect(envelope.data).toMatchObject({
        _summarized: NODE_SCHEMA_SUMMARIES,
        propertyCount: raw.properties.length,
      });
      const required = raw.properties.filter((property) => property.required === true);
      const { items } = await queryAllPages(bounded.call, {
        artifactId: envelope.responseMeta.artifact.id,
        filters: [{ path: "/required", op: "eq", value: true }],
        fields: ["name", "type"],
        pageSize: 100,
      });
      expect(required.length).toBeGreaterThan(0);
      expect(items).toEqual(required.map(({ name: n, type }) => ({ name: n, type })));
    },
  );
});
