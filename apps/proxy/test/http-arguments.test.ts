import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type HttpProxyProcess, startHttpProxy } from "./support/proxy-process.js";
import { INITIALIZE } from "./support/raw-stdio.js";

const directory = mkdtempSync(join(tmpdir(), "proxy-arguments-"));
let proxy: HttpProxyProcess;
let sessionId: string;

/** POSTs `body` (a string is sent as is) to the proxy in the open session. */
function post(body: unknown, session: Record<string, string>) {
  return fetch(proxy.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...session,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC message of a response, whether it came as JSON or as one SSE event. */
async function messageOf(response: Response): Promise<{ result?: Record<string, unknown> }> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return JSON.parse(text);
  }
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trim())
    .join("");
  return JSON.parse(data);
}

beforeAll(async () => {
  proxy = await startHttpProxy([
    "--listen",
    "http://127.0.0.1:0/mcp",
    "--",
    process.execPath,
    SERVER_FILESYSTEM,
    directory,
  ]);
  const opened = await post(INITIALIZE, {});
  sessionId = opened.headers.get("mcp-session-id") as string;
  await opened.text();
  const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
});

afterAll(async () => {
  await proxy?.stop();
  rmSync(directory, { recursive: true, force: true });
});

/** A tools/call body written as text, so `__proto__` is an own key of the parsed arguments. */
async function callRaw(id: number, name: string, argumentsText: string) {
  const response = await post(
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${argumentsText}}}`,
    { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
  );
  expect(response.status).toBe(200);
  return messageOf(response);
}

describe("an HTTP request whose arguments hold an own __proto__ key, through the proxy", () => {
  it("gets the query tool's INVALID_RESPONSE_CONTROLS envelope naming __proto__", async () => {
    const { result } = await callRaw(
      2,
      QUERY_TOOL_NAME,
      '{"artifactId":"abc","__proto__":{"pageSize":1}}',
    );
    expect(result).toMatchObject({
      isError: true,
      structuredContent: {
        response: { error: { code: "INVALID_RESPONSE_CONTROLS", details: { field: "__proto__" } } },
      },
    });
  });

  it("gets an error result for an upstream tool, which is not called with the key dropped", async () => {
    const { result } = await callRaw(
      3,
      "list_directory",
      `{"path":${JSON.stringify(directory)},"__proto__":{"admin":true}}`,
    );
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'bounded-mcp: tool "list_directory" was called with an argument named "__proto__", which cannot be passed on as data (it would be dropped); rename or remove it',
        },
      ],
      isError: true,
    });
  });
});
