#!/usr/bin/env node
// The floor of the HTTP load benchmark (http-load.ts): a bare node:http server in its own process
// answering the same engine call as the proxy, with nothing of MCP around it. It holds the
// document of load-document.mjs (argv[2] MiB) as one artifact of the adapter (createBoundedMcp,
// openSession, runToolCall, as the engine-alone baseline does), prints `listening on <url>
// <artifactId>`, then answers each POST (a body of query arguments) with the JSON of the
// CallToolResult: read the body, JSON.parse, runToolCall, JSON.stringify, one write.
import { createServer } from "node:http";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { loadDocumentText } from "./load-document.mjs";

const mebibytes = Number(process.argv[2] ?? "50");
const bounded = await createBoundedMcp({ environment: {}, principals: "many" });
const session = bounded.openSession({ listTools: async () => [] });
const extra = (requestId) => ({
  signal: new AbortController().signal,
  sessionId: "floor",
  requestId,
  authInfo: { token: "floor", clientId: "bench", scopes: [] },
  sendNotification: async () => {},
  sendRequest: async () => ({}),
});
const text = loadDocumentText(mebibytes);
const big = await session.runToolCall(
  { method: "tools/call", params: { name: "big", arguments: {} } },
  extra(0),
  async () => ({ content: [{ type: "text", text }] }),
);
const artifactId = big.structuredContent.responseMeta.artifact.id;
const notUpstream = async () => {
  throw new Error("not an upstream tool");
};
let requests = 0;
const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    requests += 1;
    const args = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const result = await session.runToolCall(
      { method: "tools/call", params: { name: QUERY_TOOL_NAME, arguments: args } },
      extra(requests),
      notUpstream,
    );
    const body = JSON.stringify(result);
    response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/ ${artifactId}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void bounded.dispose().then(() => process.exit(0));
});
