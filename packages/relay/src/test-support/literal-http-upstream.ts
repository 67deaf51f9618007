import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { readBody, toWebRequest } from "./web-request.js";

/**
 * structuredContent as an upstream in another language may write it: pretty-printed, numbers a
 * double cannot hold (`12345678901234567890`, `1e400`, `-0`), lone surrogates as escapes, raw
 * UTF-8, and enough rows to be over the default inlineBytes (so it is bounded and stored).
 */
export const LITERAL_STRUCTURED = `{
  "big": 12345678901234567890,
  "huge": 1e400,
  "negativeZero": -0,
  "lone": "\\ud800 and \\udc00",
  "text": "café ✓ {\\"[\\"}",
  "rows": [
${Array.from({ length: 400 }, (_, id) => `    { "id": ${id}, "price": 1.50, "name": "row ${id} ${"x".repeat(60)}" }`).join(",\n")}
  ]
}`;

/** Options of {@link startLiteralHttpUpstream}. */
export interface LiteralHttpUpstreamOptions {
  /** The SDK transport's `enableJsonResponse`: true answers application/json, false SSE. */
  json: boolean;
  /** SSE lines end with CRLF instead of LF (the SDK writes LF). */
  crlf?: boolean;
  /** The body is written in pieces of this many bytes, each after the last was flushed. */
  pieceBytes?: number;
}

/** A running upstream: its URL and how to stop it. */
export interface LiteralHttpUpstream {
  url: string;
  /** tools/call requests answered so far. */
  readonly calls: number;
  close(): Promise<void>;
}

function createUpstreamServer(): McpServer {
  const server = new McpServer({ name: "literal-http", version: "1.0.0" });
  server.registerTool("literal", { description: "LITERAL_STRUCTURED as written." }, async () => ({
    content: [{ type: "text", text: "literal" }],
    structuredContent: JSON.parse(LITERAL_STRUCTURED) as Record<string, unknown>,
  }));
  server.registerTool("small", { description: "A small structuredContent." }, async () => ({
    content: [{ type: "text", text: "small" }],
    structuredContent: { small: true },
  }));
  server.registerTool("plain", { description: "Text only." }, async () => ({
    content: [{ type: "text", text: "plain" }],
  }));
  return server;
}

/**
 * The SDK writes every message with JSON.stringify, so the literals of LITERAL_STRUCTURED could
 * not reach the wire from it; its compact serialization in the body is replaced by the literal
 * text (in an SSE event, one `data:` line per line of it, as SSE carries a multi-line data).
 */
function withLiteral(body: string, sse: boolean): string {
  const serialized = JSON.stringify(JSON.parse(LITERAL_STRUCTURED));
  const literal = sse ? LITERAL_STRUCTURED.split("\n").join("\ndata: ") : LITERAL_STRUCTURED;
  return body.replace(serialized, () => literal);
}

/**
 * A real SDK McpServer (tools `literal`, `small`, `plain`) behind the SDK's web-standard
 * streamable HTTP server transport, stateless, on 127.0.0.1 port 0. Each response is read whole
 * from the SDK, then written with LITERAL_STRUCTURED as its upstream would write it (see
 * withLiteral), in pieces when asked.
 */
export async function startLiteralHttpUpstream(
  options: LiteralHttpUpstreamOptions,
): Promise<LiteralHttpUpstream> {
  let calls = 0;
  const http = createServer(async (request, response) => {
    const body = request.method === "POST" ? await readBody(request) : undefined;
    if (body?.includes('"tools/call"')) calls += 1;
    const server = createUpstreamServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: options.json,
    });
    await server.connect(transport);
    const answer = await transport.handleRequest(toWebRequest(request, body));
    const sse = answer.headers.get("content-type")?.startsWith("text/event-stream") === true;
    let text = withLiteral(await answer.text(), sse);
    if (sse && options.crlf === true) text = text.replaceAll("\n", "\r\n");
    const outgoing: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== "content-length") outgoing[name] = value;
    });
    response.writeHead(answer.status, outgoing);
    const bytes = Buffer.from(text, "utf8");
    const piece = options.pieceBytes ?? bytes.byteLength;
    for (let at = 0; at < bytes.byteLength; at += piece) {
      await new Promise<void>((resolve) =>
        response.write(bytes.subarray(at, at + piece), () => resolve()),
      );
    }
    response.end();
    await transport.close();
    await server.close();
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    get calls() {
      return calls;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
