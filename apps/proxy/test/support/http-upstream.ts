import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** A real SDK McpServer over stateless streamable HTTP on 127.0.0.1, in the test process. */
export interface HttpUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves one tool, `request-headers`, answering with the `authorization` and `x-team` headers
 * its HTTP request carried, and `big-list`, returning `count` rows as JSON text.
 */
export async function startHttpUpstream(): Promise<HttpUpstream> {
  const createMcp = () => {
    const mcp = new McpServer({ name: "http-upstream", version: "1.0.0" });
    mcp.registerTool("request-headers", { description: "echo request headers" }, (extra) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({
            authorization: extra.requestInfo?.headers.authorization ?? null,
            team: extra.requestInfo?.headers["x-team"] ?? null,
          }),
        },
      ],
    }));
    return mcp;
  };
  const server: Server = createServer(async (request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = createMcp();
    response.once("close", () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
