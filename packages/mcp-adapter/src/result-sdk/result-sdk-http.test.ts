import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type CallInfo, getRawCallToolRequest, setRawCallToolResult } from "./call-context.js";
import { createCallInterceptor } from "./call-interceptor.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the transport decorator over streamable HTTP", () => {
  it("serves through the wrapped transport's handleRequest and passes the session id to the hook", async () => {
    const infos: CallInfo[] = [];
    const interceptor = createCallInterceptor({
      onResult: (_request, result, info) => {
        infos.push(info);
        return result;
      },
    });
    const server = new McpServer({ name: "http-server", version: "1.0.0" });
    server.registerTool("whoami", { inputSchema: { label: z.string() } }, async ({ label }) => {
      setRawCallToolResult({ _meta: { trace: getRawCallToolRequest()?.params._meta?.["trace"] } });
      return { content: [{ type: "text", text: label }] };
    });
    const transport = interceptor.wrapTransport(
      new StreamableHTTPServerTransport({ sessionIdGenerator: () => "session-1" }),
    );
    await server.connect(transport);
    const http: HttpServer = createServer((request, response) => {
      void transport.handleRequest(request, response);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () => new Promise<void>((resolve) => http.close(() => resolve())),
      () => server.close(),
    );
    const { port } = http.address() as AddressInfo;
    const client = new Client({ name: "http-client", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
    );
    cleanups.push(() => client.close());

    expect(
      await client.callTool({
        name: "whoami",
        arguments: { label: "hi" },
        _meta: { trace: "t-9" },
      }),
    ).toEqual({ content: [{ type: "text", text: "hi" }], _meta: { trace: "t-9" } });
    expect(infos).toEqual([
      {
        sessionId: "session-1",
        requestInfo: expect.objectContaining({ headers: expect.any(Object) }),
      },
    ]);
  });
});
