import { createHash } from "node:crypto";
import { DescriptorSchema } from "@bounded-mcp/contract";
import { analyzeDocument } from "@bounded-mcp/query-core";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import {
  type Connection,
  connect,
  connectTwoCallers,
  createTestAdapter,
  TEST_NOW,
  UNKNOWN_ID,
} from "./support/harness.js";

const payload = itemsPayloadOfSize(300_000);
const text = JSON.stringify(payload);

let bounded: BoundedMcp;
let connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections) await connection.close();
  connections = [];
  await bounded.dispose();
});

async function setUp() {
  bounded = createTestAdapter();
  const callers = await connectTwoCallers(bounded, payload);
  connections.push(callers.alice, callers.bob);
  return callers;
}

async function readError(connection: Connection, uri: string) {
  try {
    await connection.client.readResource({ uri });
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    const { code, message, data } = error as McpError;
    return { code, message, data };
  }
  throw new Error(`reading ${uri} succeeded`);
}

describe("descriptor resources", () => {
  it("lists the template artifact://<namespace>/{id}", async () => {
    const { alice } = await setUp();
    const { resourceTemplates } = await alice.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        name: "artifact-descriptor",
        title: "Stored tool result descriptor",
        uriTemplate: "artifact://bounded-mcp/{id}",
        description:
          "What an oversized tool result was stored as (size, media type, expiry, paths to query); never its content. Read values with query_response_artifact.",
        mimeType: "application/json",
      },
    ]);
  });

  it("reads the caller's own descriptor, within 8 KiB and without payload", async () => {
    const { alice, id } = await setUp();
    const uri = `artifact://bounded-mcp/${id}`;
    const { contents } = await alice.client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content).toMatchObject({ uri, mimeType: "application/json" });
    const descriptorText = content && "text" in content ? content.text : "";
    expect(Buffer.byteLength(descriptorText)).toBeLessThanOrEqual(8192);
    const analysis = analyzeDocument(payload);
    expect(DescriptorSchema.parse(JSON.parse(descriptorText))).toEqual({
      descriptorVersion: 1,
      contractVersion: 3,
      id,
      uri,
      mediaType: "application/json",
      byteLength: Buffer.byteLength(text),
      sha256: createHash("sha256").update(text).digest("hex"),
      expiresAt: new Date(TEST_NOW + 86_400_000).toISOString(),
      queryTool: "query_response_artifact",
      responseRoot: analysis.responseRoot,
      primaryPaths: analysis.primaryPaths,
      sourceTruncated: false,
      rawReadable: false,
      guidance: `This is a stored tool result's descriptor, not its content. Read values with query_response_artifact: start with {"artifactId": "${id}", "describe": true}, then select with responsePath, fields, filters or textSearch, and page with the returned cursor.`,
    });
    expect(descriptorText.includes("item-000001")).toBe(false);
  });

  it("answers another scope exactly as it answers an unknown id: McpError -32002", async () => {
    const { bob, id } = await setUp();
    const otherScope = await readError(bob, `artifact://bounded-mcp/${id}`);
    const unknown = await readError(bob, `artifact://bounded-mcp/${UNKNOWN_ID}`);
    expect(otherScope).toEqual({
      code: -32002,
      message:
        "MCP error -32002: MCP error -32002: Resource not found: no artifact descriptor is available at this URI",
      data: { uri: `artifact://bounded-mcp/${id}` },
    });
    expect(JSON.stringify(unknown).replaceAll(UNKNOWN_ID, id)).toBe(JSON.stringify(otherScope));
  });

  it("answers a malformed id and another namespace with the same error", async () => {
    const { alice } = await setUp();
    expect(await readError(alice, "artifact://bounded-mcp/not..valid")).toEqual({
      code: -32002,
      message:
        "MCP error -32002: MCP error -32002: Resource not found: no artifact descriptor is available at this URI",
      data: { uri: "artifact://bounded-mcp/not..valid" },
    });
    expect((await readError(alice, `artifact://elsewhere/${UNKNOWN_ID}`)).code).toBe(-32002);
  });

  it("gives the same uniform answer on an McpServer", async () => {
    bounded = createTestAdapter();
    const sessions: Connection[] = [];
    for (const sessionId of ["alice", "bob"]) {
      const server = new McpServer({ name: "fixture", version: "1.0.0" });
      bounded.attach(server);
      server.registerTool("fixture", { description: "items" }, async () => jsonTextResult(payload));
      sessions.push(await connect(server.server, sessionId));
    }
    connections.push(...sessions);
    const [alice, bob] = sessions as [Connection, Connection];
    const result = await alice.client.callTool({ name: "fixture", arguments: {} });
    const { id } = (result.structuredContent as { responseMeta: { artifact: { id: string } } })
      .responseMeta.artifact;
    const uri = `artifact://bounded-mcp/${id}`;
    expect((await alice.client.readResource({ uri })).contents).toHaveLength(1);
    const otherScope = await readError(bob, uri);
    const unknown = await readError(bob, `artifact://bounded-mcp/${UNKNOWN_ID}`);
    expect(otherScope.code).toBe(-32002);
    expect(JSON.stringify(unknown).replaceAll(UNKNOWN_ID, id)).toBe(JSON.stringify(otherScope));
  });
});
