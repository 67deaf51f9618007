import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/**
 * structuredContent as an upstream in another language may write it: pretty-printed, numbers a
 * double cannot hold, a lone surrogate escape, over the default inlineBytes (so it is stored).
 */
export const LITERAL_STRUCTURED = `{
  "big": 12345678901234567890,
  "huge": 1e400,
  "negativeZero": -0,
  "lone": "\\ud800",
  "rows": [
${Array.from({ length: 400 }, (_, id) => `    { "id": ${id}, "name": "row ${id} ${"x".repeat(60)}" }`).join(",\n")}
  ]
}`;

/** A running upstream: its URL and how to stop it. */
export interface LiteralHttpUpstream {
  readonly url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A real SDK McpServer with one tool, `literal`, behind the SDK's web-standard streamable HTTP
 * server transport (stateless; `json` is its enableJsonResponse) on 127.0.0.1 port 0. The SDK
 * writes every message with JSON.stringify, so the compact serialization of LITERAL_STRUCTURED
 * in each body is replaced by its text as written (one `data:` line per line of it over SSE).
 */
export async function startLiteralHttpUpstream(json: boolean): Promise<LiteralHttpUpstream> {
  const serialized = JSON.stringify(JSON.parse(LITERAL_STRUCTURED));
  const server = createServer(async (request, response) => {
    const body = request.method === "POST" ? await readBody(request) : undefined;
    const mcp = new McpServer({ name: "literal-http", version: "1.0.0" });
    mcp.registerTool("literal", { description: "LITERAL_STRUCTURED as written" }, () => ({
      content: [{ type: "text", text: "literal" }],
      structuredContent: JSON.parse(LITERAL_STRUCTURED) as Record<string, unknown>,
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: json,
    });
    await mcp.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const answer = await transport.handleRequest(
      new Request(`http://127.0.0.1${request.url ?? "/"}`, {
        method: request.method ?? "GET",
        headers,
        ...(body === undefined ? {} : { body }),
      }),
    );
    const sse = answer.headers.get("content-type")?.startsWith("text/event-stream") === true;
    const literal = sse ? LITERAL_STRUCTURED.split("\n").join("\ndata: ") : LITERAL_STRUCTURED;
    const text = (await answer.text()).replace(serialized, () => literal);
    const outgoing: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== "content-length") outgoing[name] = value;
    });
    response.writeHead(answer.status, outgoing).end(text);
    await transport.close();
    await mcp.close();
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
