import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { childPids, isAlive } from "./support/child-processes.js";
import { startHttpUpstream } from "./support/http-upstream.js";
import { completeCallSignalledMidway } from "./support/long-operation.js";
import { SERVER_EVERYTHING, SERVER_FILESYSTEM } from "./support/paths.js";
import {
  connectHttpClient,
  connectStdioProxy,
  type HttpProxyProcess,
  startHttpProxy,
} from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";
import { INITIALIZE } from "./support/raw-stdio.js";
import { TOKENS, writeTokensFile } from "./support/tokens.js";

const folder = createJsonFolder(2);
const tokensFile = writeTokensFile(folder.dir);
const LISTEN = ["--listen", "http://127.0.0.1:0/mcp"];
let proxy: HttpProxyProcess;
const clients: Client[] = [];

async function client(token?: string, url = proxy.url): Promise<Client> {
  const connected = await connectHttpClient(url, token);
  clients.push(connected);
  return connected;
}

function post(body: unknown, headers: Record<string, string> = {}, url = proxy.url) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * A POST on a connection of its own (no keep-alive pool): for a test whose subject is sessions
 * across an idle wait, where a pooled connection kept across that wait is not what it tests.
 */
function postOnNewConnection(
  body: unknown,
  headers: Record<string, string>,
  url: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const received = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === "string") received.set(name, value);
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: received,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify(body));
  });
}

/** The answer to a body over --max-body-bytes 64KiB. */
const TOO_LARGE = {
  status: 413,
  body: {
    jsonrpc: "2.0",
    error: { code: -32000, message: "request body over 65536 bytes (--max-body-bytes)" },
    id: null,
  },
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function readBig(caller: Client): Promise<Envelope> {
  return structured<Envelope>(
    await caller.callTool({ name: "read_text_file", arguments: { path: folder.bigPath } }),
  );
}

beforeAll(async () => {
  proxy = await startHttpProxy([
    ...LISTEN,
    "--auth-tokens",
    tokensFile,
    "--max-body-bytes",
    "64KiB",
    "--",
    process.execPath,
    SERVER_FILESYSTEM,
    folder.dir,
  ]);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((connected) => connected.close()));
  await proxy?.stop();
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("bounded-mcp-proxy over streamable HTTP", () => {
  it("prints the loopback URL it listens on and answers GET /healthz with 200, no token needed", async () => {
    expect(new URL(proxy.url).hostname).toBe("127.0.0.1");
    const response = await fetch(new URL("/healthz", proxy.url));
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 200,
      body: { status: "ok" },
    });
  });

  it("refuses a request without a valid bearer token with 401 and WWW-Authenticate", async () => {
    const missing = await post(INITIALIZE);
    expect({
      status: missing.status,
      challenge: missing.headers.get("www-authenticate"),
      body: await missing.json(),
    }).toEqual({
      status: 401,
      challenge: 'Bearer realm="bounded-mcp-proxy"',
      body: {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Unauthorized: a valid bearer token is required" },
        id: null,
      },
    });
    const wrong = await post(INITIALIZE, bearer("not-a-known-token"));
    expect([wrong.status, wrong.headers.get("www-authenticate")]).toEqual([
      401,
      'Bearer realm="bounded-mcp-proxy", error="invalid_token"',
    ]);
  });

  it("refuses a foreign browser Origin with 403 and accepts its own", async () => {
    const foreign = await post(INITIALIZE, {
      ...bearer(TOKENS.alice),
      origin: "https://evil.example",
    });
    expect({ status: foreign.status, body: await foreign.json() }).toEqual({
      status: 403,
      body: {
        jsonrpc: "2.0",
        error: { code: -32000, message: 'Origin "https://evil.example" is not allowed' },
        id: null,
      },
    });
    const own = await post(INITIALIZE, {
      ...bearer(TOKENS.alice),
      origin: new URL(proxy.url).origin,
    });
    expect(own.status).toBe(200);
  });

  it("refuses a Host header it does not serve (DNS rebinding) with 403", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const outgoing = request(proxy.url, {
        method: "POST",
        headers: {
          host: "attacker.example:80",
          "content-type": "application/json",
          ...bearer(TOKENS.alice),
        },
      });
      outgoing.on("response", (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      outgoing.on("error", reject);
      outgoing.end(JSON.stringify(INITIALIZE));
    });
    expect(status).toBe(403);
  });

  it("refuses a request body over --max-body-bytes with 413", async () => {
    const response = await post(
      { ...INITIALIZE, params: { ...INITIALIZE.params, padding: "x".repeat(70 * 1024) } },
      bearer(TOKENS.alice),
    );
    expect({ status: response.status, body: await response.json() }).toEqual(TOO_LARGE);
  });

  it("refuses a chunked body without Content-Length once it passes --max-body-bytes", async () => {
    const { request } = await import("node:http");
    const answer = await new Promise<{ status: number | undefined; body: string }>(
      (resolve, reject) => {
        const outgoing = request(proxy.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...bearer(TOKENS.alice),
          },
        });
        outgoing.on("response", (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (text: string) => {
            body += text;
          });
          response.on("end", () => resolve({ status: response.statusCode, body }));
        });
        outgoing.on("error", reject);
        for (let index = 0; index < 5; index++) outgoing.write("x".repeat(16 * 1024));
        outgoing.end();
      },
    );
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual(TOO_LARGE);
  });

  it("keeps two principals' artifacts apart", async () => {
    const [alice, bob] = await Promise.all([client(TOKENS.alice), client(TOKENS.bob)]);
    const aliceId = (await readBig(alice)).responseMeta.artifact.id;
    const bobId = (await readBig(bob)).responseMeta.artifact.id;
    expect(bobId).not.toBe(aliceId);
    expect((await query(alice, aliceId, { describe: true })).shape).toMatchObject({
      type: "array",
      length: folder.rowCount,
    });
    const refused = await query(bob, aliceId, { describe: true });
    expect(refused.response).toEqual({
      error: {
        code: "INVALID_ARTIFACT_HANDLE",
        message: expect.any(String),
        details: { reason: "unknown" },
      },
    });
    expect(await query(bob, aliceId, { describe: true })).toEqual(
      await query(bob, "A".repeat(24), { describe: true }).then((unknown) => ({
        ...unknown,
        artifactId: aliceId,
      })),
    );
  });

  it("does not let one principal use another principal's session", async () => {
    const opened = await post(INITIALIZE, bearer(TOKENS.alice));
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    const hijack = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...bearer(TOKENS.bob), "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    );
    expect({ status: hijack.status, body: await hijack.json() }).toEqual({
      status: 404,
      body: { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
    });
  });
});

describe("bounded-mcp-proxy --upstream-url", () => {
  it("relays a streamable HTTP upstream, sending the --upstream-header on every request", async () => {
    const upstream = await startHttpUpstream();
    try {
      const chained = await connectStdioProxy([
        "--upstream-url",
        upstream.url,
        "--upstream-header",
        "Authorization: Bearer upstream-secret",
        "--upstream-header",
        "X-Team: core",
      ]);
      clients.push(chained);
      expect((await chained.listTools()).tools.map((tool) => tool.name)).toEqual([
        "request-headers",
        "query_response_artifact",
      ]);
      expect(await chained.callTool({ name: "request-headers", arguments: {} })).toEqual({
        content: [
          { type: "text", text: '{"authorization":"Bearer upstream-secret","team":"core"}' },
        ],
      });
    } finally {
      await upstream.close();
    }
  });
});

describe("bounded-mcp-proxy --idle-timeout", () => {
  it("closes a session nobody used for that long, freeing its --max-sessions slot", async () => {
    const idle = await startHttpProxy(
      [
        ...LISTEN,
        "--max-sessions",
        "1",
        "--idle-timeout",
        "300ms",
        "--",
        process.execPath,
        SERVER_EVERYTHING,
        "stdio",
      ],
      { BOUNDED_MCP_LOG_LEVEL: "info" },
    );
    try {
      const opened = await postOnNewConnection(INITIALIZE, {}, idle.url);
      const sessionId = opened.headers.get("mcp-session-id")!;
      // Nothing touches the first session; the sweep closes it and says so.
      await idle.logged(`"sessionId":"${sessionId}","msg":"session closed: idle"`);
      const second = await postOnNewConnection(INITIALIZE, {}, idle.url);
      expect(second.status).toBe(200);
      const stale = await postOnNewConnection(
        { jsonrpc: "2.0", id: 9, method: "ping" },
        { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
        idle.url,
      );
      expect({ status: stale.status, body: JSON.parse(stale.text) }).toEqual({
        status: 404,
        body: { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
      });
    } finally {
      await idle.stop();
    }
  });
});

describe("bounded-mcp-proxy --idle-timeout while a session starts", () => {
  it("keeps a session whose initialize outlasts the idle timeout and answers it", async () => {
    // The upstream child starts only after 1.5 s, five times --idle-timeout: the initialize POST
    // is in flight all that while, so the idle sweep must leave its session alone.
    const slowStart = `setTimeout(() => import(${JSON.stringify(pathToFileURL(SERVER_EVERYTHING).href)}), 1500)`;
    const slow = await startHttpProxy(
      [...LISTEN, "--idle-timeout", "300ms", "--", process.execPath, "-e", slowStart],
      { BOUNDED_MCP_LOG_LEVEL: "info" },
    );
    try {
      const opened = await postOnNewConnection(INITIALIZE, {}, slow.url);
      const sessionId = opened.headers.get("mcp-session-id");
      expect({ status: opened.status, sessionId: typeof sessionId }).toEqual({
        status: 200,
        sessionId: "string",
      });
      expect(opened.text).toContain('"protocolVersion"');
      const ping = await postOnNewConnection(
        { jsonrpc: "2.0", id: 9, method: "ping" },
        { "mcp-session-id": sessionId ?? "", "mcp-protocol-version": "2025-06-18" },
        slow.url,
      );
      expect(ping.status).toBe(200);
      expect(ping.text).toContain('"result":{}');
    } finally {
      await slow.stop();
    }
  });
});

describe("bounded-mcp-proxy --max-sessions", () => {
  it("answers 503 to a session beyond the cap and serves the ones it has", async () => {
    const capped = await startHttpProxy([
      ...LISTEN,
      "--max-sessions",
      "1",
      "--",
      process.execPath,
      SERVER_EVERYTHING,
      "stdio",
    ]);
    try {
      const first = await client(undefined, capped.url);
      const refused = await post(INITIALIZE, {}, capped.url);
      expect({ status: refused.status, retry: refused.headers.get("retry-after") }).toEqual({
        status: 503,
        retry: "5",
      });
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: "too many sessions (--max-sessions 1)" },
        id: null,
      });
      expect(await first.callTool({ name: "echo", arguments: { message: "still here" } })).toEqual({
        content: [{ type: "text", text: "Echo: still here" }],
      });
    } finally {
      await capped.stop();
    }
  });
});

describe("bounded-mcp-proxy --stateless", () => {
  it("shares one upstream, scopes artifacts by token, and serves them to any connection", async () => {
    const directory = mkdtempSync(join(tmpdir(), "bounded-mcp-stateless-"));
    const stateless = await startHttpProxy([
      ...LISTEN,
      "--stateless",
      "--auth-tokens",
      writeTokensFile(directory),
      "--",
      process.execPath,
      SERVER_FILESYSTEM,
      folder.dir,
    ]);
    try {
      const [first, second, bob] = await Promise.all([
        client(TOKENS.alice, stateless.url),
        client(TOKENS.alice, stateless.url),
        client(TOKENS.bob, stateless.url),
      ]);
      const { id } = (await readBig(first)).responseMeta.artifact;
      expect((await query(second, id, { fields: ["name"], pageSize: 2 })).response).toEqual([
        { name: "user-0" },
        { name: "user-1" },
      ]);
      expect((await query(bob, id, { describe: true })).response).toMatchObject({
        error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } },
      });
      const opened = await post(INITIALIZE, bearer(TOKENS.alice), stateless.url);
      expect(opened.headers.get("mcp-session-id")).toBeNull();
    } finally {
      await stateless.stop();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe("bounded-mcp-proxy on SIGTERM", () => {
  it("lets the call in flight finish, then closes the upstream and exits 0", async () => {
    const stopping = await startHttpProxy(
      [...LISTEN, "--", process.execPath, SERVER_EVERYTHING, "stdio"],
      { BOUNDED_MCP_LOG_LEVEL: "info" },
    );
    const caller = await client(undefined, stopping.url);
    const upstreamChildren = childPids(stopping.child.pid!);
    expect(upstreamChildren).toHaveLength(1);
    await completeCallSignalledMidway(caller, 2, () => stopping.child.kill("SIGTERM"));
    expect(await stopping.exited).toBe(0);
    expect(upstreamChildren.filter(isAlive)).toEqual([]);
    const logged = stopping.stderr();
    expect(logged.indexOf("SIGTERM: finishing in-flight calls")).toBeGreaterThan(-1);
    expect(logged.indexOf('"msg":"stopped"')).toBeGreaterThan(
      logged.indexOf("SIGTERM: finishing in-flight calls"),
    );
  });
});
