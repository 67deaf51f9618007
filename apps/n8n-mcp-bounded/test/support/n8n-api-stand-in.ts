import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { generateExecutions, generateWorkflow } from "./generate-workflow.js";

/** The API key the stand-in accepts (header X-N8N-API-KEY). */
export const STAND_IN_API_KEY = "stand-in-api-key";

/** Workflows the stand-in serves, by id. */
export const STAND_IN_WORKFLOWS = {
  /** 320 nodes: about 150 KB compact, bounded by the adapter. */
  big: generateWorkflow({ id: "big", nodeCount: 320 }),
  /** 450 nodes of heavy Code: over 1,000,000 characters pretty-printed, so n8n-mcp cuts it. */
  huge: generateWorkflow({ id: "huge", nodeCount: 450, codeChars: 2_500 }),
  /** 3 nodes: passes through inline. */
  small: generateWorkflow({ id: "small", nodeCount: 3 }),
} as const;

/** The executions the stand-in lists (of the "big" workflow). */
export const STAND_IN_EXECUTIONS = generateExecutions("big", 120);

/** A running stand-in of the n8n public API (the routes n8n-mcp's management tools call). */
export interface N8nApiStandIn {
  /** `http://127.0.0.1:<port>`: give it to n8n-mcp as N8N_API_URL. */
  url: string;
  /** Every request path received, in order (with its query string). */
  requests: string[];
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function route(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers["x-n8n-api-key"] !== STAND_IN_API_KEY) {
    send(response, 401, { message: "unauthorized" });
    return;
  }
  const url = new URL(request.url ?? "/", "http://stand-in");
  const workflow = /^\/api\/v1\/workflows\/([^/]+)$/.exec(url.pathname);
  if (request.method === "GET" && workflow !== null) {
    const id = decodeURIComponent(workflow[1] ?? "") as keyof typeof STAND_IN_WORKFLOWS;
    if (Object.hasOwn(STAND_IN_WORKFLOWS, id)) send(response, 200, STAND_IN_WORKFLOWS[id]);
    else send(response, 404, { message: "Not Found" });
    return;
  }
  if (request.method === "GET" && url.pathname === "/api/v1/executions") {
    const limit = Number(url.searchParams.get("limit") ?? "100");
    send(response, 200, { data: STAND_IN_EXECUTIONS.slice(0, limit), nextCursor: "page-2" });
    return;
  }
  if (request.method === "GET" && url.pathname === "/api/v1/workflows") {
    send(response, 200, { data: [], nextCursor: null });
    return;
  }
  send(response, 404, { message: "Not Found" });
}

/**
 * Starts a node:http stand-in of the n8n public API on 127.0.0.1 (port 0): GET /api/v1/workflows/:id
 * (the generated workflows above, else 404), GET /api/v1/executions (the first `limit` executions
 * and a nextCursor) and GET /api/v1/workflows (empty). n8n itself needs Node 24; n8n-mcp needs
 * WEBHOOK_SECURITY_MODE=moderate to call 127.0.0.1 (docs/sdk-notes.md 11).
 */
export async function startN8nApiStandIn(): Promise<N8nApiStandIn> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
