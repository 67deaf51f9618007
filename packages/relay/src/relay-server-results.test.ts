import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { inMemoryUpstream, type StartedRelay, startRelay } from "./test-support/start-relay.js";

const AS_SENT = z.custom<Record<string, unknown>>((value) => typeof value === "object");

/** An upstream whose tools/call answers `result` as is (no SDK re-validation on its side). */
function createUpstream(result: Record<string, unknown>): Server {
  const server = new Server(
    { name: "upstream", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.fallbackRequestHandler = async (request) =>
    request.method === "tools/list"
      ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] }
      : result;
  return server;
}

const opened: StartedRelay[] = [];

afterEach(async () => {
  for (const relay of opened.splice(0)) await relay.close();
});

async function relayedCall(
  upstreamResult: Record<string, unknown>,
  params: Record<string, unknown> = { name: "echo", arguments: { text: "hi" } },
) {
  const relay = await startRelay({
    upstream: inMemoryUpstream("upstream", () => createUpstream(upstreamResult)),
  });
  opened.push(relay);
  return relay.downstream.request({ method: "tools/call", params } as never, AS_SENT);
}

describe("a relayed tools/call result on the app path", () => {
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

  it("fails tools/list when the upstream lists a tool named like the query tool after the initialize", async () => {
    let lists = 0;
    const relay = await startRelay({
      upstream: inMemoryUpstream("upstream", () => {
        const server = new Server(
          { name: "upstream", version: "1.0.0" },
          { capabilities: { tools: {} } },
        );
        server.fallbackRequestHandler = async () => {
          lists += 1;
          const name = lists > 1 ? QUERY_TOOL_NAME : "echo";
          return { tools: [{ name, inputSchema: { type: "object" } }] };
        };
        return server;
      }),
    });
    opened.push(relay);
    await expect(relay.downstream.listTools()).rejects.toThrow(
      `upstream tool "${QUERY_TOOL_NAME}" has the name of a tool the relay serves itself`,
    );
  });
});
