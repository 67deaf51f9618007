import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_EVERYTHING } from "./support/paths.js";
import { connectStdioProxy } from "./support/proxy-process.js";

const MIB = 1024 * 1024;

let proxied: Client;

beforeAll(async () => {
  proxied = await connectStdioProxy(["--", process.execPath, SERVER_EVERYTHING, "stdio"]);
});

afterAll(async () => {
  await proxied?.close();
});

describe("bounded-mcp-proxy over stdio, a request line over 10 MiB", () => {
  it("answers a 10.5 MiB request line (the SDK's stdio transport ended the proxy at 10 MiB), then a small call still works", async () => {
    const big = await proxied.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId: "a".repeat(10.5 * MIB) },
    });
    expect(big.isError).toBe(true);
    expect(big.structuredContent).toMatchObject({
      response: { error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "invalid_id" } } },
    });
    expect(
      await proxied.callTool({ name: "echo", arguments: { message: "still serving" } }),
    ).toEqual({
      content: [{ type: "text", text: "Echo: still serving" }],
    });
  });
});
