import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectRelay, type RelayConnection } from "./connect-relay.js";
import { createLinearStdioClientTransport } from "./linear-stdio-client-transport.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";

const connections: RelayConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

async function connectFixture(clientInfo: { name: string; version: string }): Promise<Client> {
  const upstream = new Client(clientInfo);
  await upstream.connect(
    createLinearStdioClientTransport({ command: process.execPath, args: [FIXTURE_SERVER_PATH] }),
  );
  return upstream;
}

describe("connectRelay", () => {
  it("holds messages sent before the upstream is connected and answers them in order", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await connectRelay(serverSide, {
      connectUpstream: ({ clientInfo }) => connectFixture(clientInfo),
    });
    connections.push(connection);
    const received: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => received.push(message);
    await clientSide.start();
    await clientSide.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw-client", version: "0.1.0" },
      },
    });
    await clientSide.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 15_000 });
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: {
            logging: {},
            prompts: { listChanged: true },
            resources: { listChanged: true, subscribe: true },
            tools: { listChanged: true },
          },
          serverInfo: { name: "relay-fixture", version: "1.0.0" },
        },
      },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    const { upstream } = await connection.ready;
    expect(upstream.getServerVersion()).toEqual({ name: "relay-fixture", version: "1.0.0" });
  });

  it("answers initialize with an error naming the cause when the upstream cannot connect", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await connectRelay(serverSide, {
      connectUpstream: async () => {
        throw new Error("spawn n8n-mcp ENOENT");
      },
    });
    connections.push(connection);
    const downstream = new Client({ name: "downstream-test", version: "1.0.0" });
    await expect(downstream.connect(clientSide)).rejects.toThrow(
      "MCP error -32603: the upstream could not be connected: spawn n8n-mcp ENOENT",
    );
    await expect(connection.ready).rejects.toThrow("spawn n8n-mcp ENOENT");
  });
});
