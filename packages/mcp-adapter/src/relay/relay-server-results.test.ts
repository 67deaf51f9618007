import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type BoundedMcp, createBoundedMcp } from "../server/create-bounded-mcp.js";
import { createRelayServer } from "./relay-server.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

/** An upstream whose tools/call answers `result` as is (no SDK re-validation on its side). */
async function connectUpstream(result: Record<string, unknown>): Promise<Client> {
  const server = new Server(
    { name: "upstream", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.fallbackRequestHandler = async (request) =>
    request.method === "tools/list"
      ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] }
      : result;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "relay", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const opened: { close(): Promise<void> }[] = [];
let bounded: BoundedMcp | undefined;

afterEach(async () => {
  for (const closable of opened.splice(0)) await closable.close();
  await bounded?.dispose();
});

async function relayedCall(
  upstreamResult: Record<string, unknown>,
  params: Record<string, unknown> = { name: "echo", arguments: { text: "hi" } },
) {
  bounded = createBoundedMcp({ environment: {} });
  const upstream = await connectUpstream(upstreamResult);
  const server = createRelayServer({ upstream, bounded });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const downstream = new Client({ name: "downstream", version: "1.0.0" });
  await downstream.connect(clientSide);
  opened.push(downstream, upstream);
  return downstream.request({ method: "tools/call", params } as never, AS_SENT);
}

describe("a relayed tools/call result with the adapter attached", () => {
  it("reaches the downstream as the upstream sent it, keys the SDK schemas do not know included", async () => {
    const upstreamResult = {
      content: [{ type: "text", text: "hi", vendorNote: "kept" }],
      vendorField: { kept: true },
    };
    expect(await relayedCall(upstreamResult)).toEqual(upstreamResult);
  });

  it("is not re-validated by the relay: a block of an unknown type is left to the downstream client", async () => {
    const upstreamResult = { content: [{ type: "widget", size: 3 }] };
    expect(await relayedCall(upstreamResult)).toEqual(upstreamResult);
  });

  it("fails a malformed tools/call request with the SDK schema's own error, as before", async () => {
    const params = { name: 42 };
    const schemaError = CallToolRequestSchema.safeParse({ method: "tools/call", params }).error;
    await expect(relayedCall({ content: [] }, params)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: `MCP error -32603: ${schemaError?.message}`,
    });
  });
});
