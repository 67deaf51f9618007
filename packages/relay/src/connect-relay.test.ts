import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import type { UpstreamSpec } from "./upstream-transport.js";

const opened: { relay: BoundedRelay; bounded: BoundedMcp }[] = [];

afterEach(async () => {
  for (const { relay, bounded } of opened.splice(0)) {
    await relay.close();
    await bounded.dispose();
  }
});

function relayTo(upstream: UpstreamSpec): BoundedRelay {
  const bounded = createBoundedMcp({ environment: {} });
  const relay = createBoundedRelay({ bounded, upstream });
  opened.push({ relay, bounded });
  return relay;
}

describe("a relay session's start (connectRelay)", () => {
  it("holds messages sent before the upstream is connected and answers them in order", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await relayTo({
      kind: "stdio",
      command: process.execPath,
      args: [FIXTURE_SERVER_PATH],
    }).connect(serverSide);
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
    const { upstream } = await session.ready;
    expect(upstream.getServerVersion()).toEqual({ name: "relay-fixture", version: "1.0.0" });
  });

  it("answers initialize with an error naming the cause when the upstream cannot connect", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await relayTo({
      kind: "transport",
      name: "n8n-mcp",
      createTransport: () => {
        throw new Error("spawn n8n-mcp ENOENT");
      },
    }).connect(serverSide);
    const downstream = new Client({ name: "downstream-test", version: "1.0.0" });
    await expect(downstream.connect(clientSide)).rejects.toThrow(
      "MCP error -32603: the upstream could not be connected: spawn n8n-mcp ENOENT",
    );
    await expect(session.ready).rejects.toThrow("spawn n8n-mcp ENOENT");
  });
});
