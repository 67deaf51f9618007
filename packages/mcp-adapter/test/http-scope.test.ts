import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import { createTestAdapter } from "./support/harness.js";

const payload = itemsPayloadOfSize(100_000);

let bounded: BoundedMcp;
let clients: Client[] = [];
afterEach(async () => {
  for (const client of clients) await client.close();
  clients = [];
  await bounded.dispose();
});

/**
 * A client whose every message carries `authInfo`, as an HTTP auth middleware would attach it
 * (InMemoryTransport delivers `send(message, {authInfo})` to the server as the message's extra).
 */
async function authenticatedClient(clientId: string, sessionId: string): Promise<Client> {
  const server = new Server({ name: "fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  bounded.attach(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "fixture", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) =>
    bounded.boundResult(jsonTextResult(payload), extra),
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  serverTransport.sessionId = sessionId;
  const authInfo: AuthInfo = { token: `token-${clientId}`, clientId, scopes: [] };
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = (message, options) => send(message, { ...options, authInfo });
  const client = new Client({ name: clientId, version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  clients.push(client);
  return client;
}

async function artifactOf(client: Client): Promise<string> {
  const result = (await client.callTool({ name: "fixture", arguments: {} })) as CallToolResult;
  return (result.structuredContent as { responseMeta: { artifact: { id: string } } }).responseMeta
    .artifact.id;
}

describe("HTTP caller scope", () => {
  it("binds artifacts to AuthInfo.clientId across sessions of the same principal", async () => {
    bounded = createTestAdapter();
    const first = await authenticatedClient("client-a", "session-1");
    const again = await authenticatedClient("client-a", "session-2");
    const other = await authenticatedClient("client-b", "session-3");
    const id = await artifactOf(first);
    expect(await artifactOf(again)).toBe(id);
    const sameClient = await again.callTool({
      name: "query_response_artifact",
      arguments: { artifactId: id, describe: true },
    });
    expect(sameClient.isError).toBeUndefined();
    const otherClient = await other.callTool({
      name: "query_response_artifact",
      arguments: { artifactId: id, describe: true },
    });
    expect(otherClient.isError).toBe(true);
    expect(otherClient.structuredContent).toMatchObject({
      response: { error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } } },
    });
  });

  it("uses the scope resolver's answer over the principal", async () => {
    bounded = createTestAdapter({ scope: () => "one-tenant" });
    const first = await authenticatedClient("client-a", "session-1");
    const other = await authenticatedClient("client-b", "session-2");
    expect(await artifactOf(other)).toBe(await artifactOf(first));
  });
});
