import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedRelay, startRelay } from "./test-support/start-relay.js";
import { AS_SENT } from "./test-support/stored-answers.js";
import { readBody } from "./test-support/web-request.js";

/** What each tool of the raw upstream answers as its `result` (written as JSON as is). */
const RESULTS: Record<string, string> = {
  null_result: "null",
  string_result: '"done"',
  array_result: "[]",
  content_not_array: '{"content":"done"}',
  meta_not_object: '{"content":[],"_meta":5}',
  echo: '{"content":[{"type":"text","text":"ok"}]}',
};

/** Each upstream tools/call answered so far, resolved once its response was written. */
const answered: Promise<unknown>[] = [];

/**
 * Just enough streamable HTTP for the SDK's client transport: initialize answered as JSON with a
 * session id, notifications 202, no GET stream (405), tools/list, and tools/call answered with
 * RESULTS written raw, as application/json or (for a name ending in `_sse`) as one SSE event.
 */
async function serveRaw(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== "POST") {
    response.writeHead(405).end();
    return;
  }
  const message = JSON.parse(await readBody(request)) as {
    id?: number;
    method: string;
    params?: { name?: string; protocolVersion?: string };
  };
  if (message.id === undefined) {
    response.writeHead(202).end();
    return;
  }
  let result: string;
  if (message.method === "initialize") {
    result = JSON.stringify({
      protocolVersion: message.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "raw-http", version: "1.0.0" },
    });
  } else if (message.method === "tools/list") {
    result = JSON.stringify({
      tools: Object.keys(RESULTS).flatMap((name) => [
        { name, inputSchema: { type: "object" } },
        { name: `${name}_sse`, inputSchema: { type: "object" } },
      ]),
    });
  } else {
    const name = String(message.params?.name);
    result = RESULTS[name.replace(/_sse$/, "")] ?? "{}";
    if (name.endsWith("_sse")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        `event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":${result}}\n\n`,
      );
      answered.push(once(response, "finish"));
      return;
    }
  }
  response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "raw-session" });
  response.end(`{"jsonrpc":"2.0","id":${message.id},"result":${result}}`);
  if (message.method === "tools/call") answered.push(once(response, "finish"));
}

let relay: StartedRelay;
const http = createServer((request, response) => void serveRaw(request, response));

beforeAll(async () => {
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  relay = await startRelay({ upstream: { kind: "http", url, name: "raw-http" } });
});

afterAll(async () => {
  await relay?.close();
  await new Promise((resolve) => http.close(resolve));
});

/**
 * Calls `name` through the relay and checks that its answer is settled by the time one more
 * ordinary call, sent after the upstream wrote its response, has come back: the call does not
 * wait for the upstream request timeout (10 minutes).
 */
async function callSettledAtOnce(name: string): Promise<unknown> {
  let settled = false;
  const call = relay.downstream
    .request({ method: "tools/call", params: { name, arguments: {} } } as never, AS_SENT)
    .finally(() => {
      settled = true;
    });
  call.catch(() => undefined);
  while (answered.length === 0) await new Promise((resolve) => setImmediate(resolve));
  await answered.shift();
  expect(
    await relay.downstream.request(
      { method: "tools/call", params: { name: "echo", arguments: {} } } as never,
      AS_SENT,
    ),
  ).toEqual({ content: [{ type: "text", text: "ok" }] });
  answered.shift();
  expect(settled).toBe(true);
  return call;
}

describe("an HTTP upstream's answer that is not a CallToolResult", () => {
  it.each([
    ["null_result", "result null"],
    ["string_result", "result a string"],
    ["array_result", "result an array"],
    ["meta_not_object", "a result whose _meta is a number"],
    ["null_result_sse", "result null"],
    ["array_result_sse", "result an array"],
  ])("%s becomes an error result at once, naming the problem", async (name, problem) => {
    expect(await callSettledAtOnce(name)).toEqual({
      content: [
        {
          type: "text",
          text: `upstream "raw-http" answered tools/call with ${problem}, not a result object; the call failed.`,
        },
      ],
      isError: true,
    });
  });

  it.each(["content_not_array", "content_not_array_sse"])(
    "%s becomes an error result naming content",
    async (name) => {
      expect(await callSettledAtOnce(name)).toEqual({
        content: [
          {
            type: "text",
            text: `bounded-mcp: tool "${name}" returned a result whose content is a string, not an array of content blocks. The result was not passed on; call the tool again or report it to its server's maintainers.`,
          },
        ],
        isError: true,
      });
    },
  );

  it("the upstream session keeps serving ordinary calls", async () => {
    expect(await callSettledAtOnce("echo_sse")).toEqual({
      content: [{ type: "text", text: "ok" }],
    });
  });
});
