import { rmSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import {
  connectHttpClient,
  type HttpProxyProcess,
  startHttpProxy,
} from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";

const folder = createJsonFolder(1);
const upstream = ["--", process.execPath, SERVER_FILESYSTEM, folder.dir];
let proxy: HttpProxyProcess;
let client: Client;
let envelope: Envelope;

/** The JSON log lines of the proxy's stderr whose msg is `message`. */
function logLines(message: string): Record<string, unknown>[] {
  return proxy
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.msg === message);
}

/** One sample of the Prometheus text: `name{labels} value`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  proxy = await startHttpProxy([
    "--listen",
    "http://127.0.0.1:0/mcp",
    "--log-level",
    "info",
    ...upstream,
  ]);
  client = await connectHttpClient(proxy.url);
  envelope = structured<Envelope>(
    await client.callTool({ name: "read_text_file", arguments: { path: folder.bigPath } }),
  );
  await query(client, envelope.responseMeta.artifact.id, { describe: true });
  await query(client, "AAAAAAAAAAAAAAAAAAAAAAAA", { describe: true });
});

afterAll(async () => {
  await client?.close();
  await proxy?.stop();
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("what the proxy shows of its work", () => {
  it("logs one info line per bounded result: tool, bytes received, bytes to the model, artifact id, ms", async () => {
    await proxy.logged('"msg":"bounded result"');
    const [line, ...more] = logLines("bounded result");
    expect(more).toEqual([]);
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      name: "bounded-mcp-proxy",
      msg: "bounded result",
      tool: "read_text_file",
      bytesReceived: envelope.responseMeta.serializedBytes,
      bytesToModel: expect.any(Number),
      artifactId: envelope.responseMeta.artifact.id,
      ms: expect.any(Number),
    });
    expect(line?.bytesToModel as number).toBeLessThan(envelope.responseMeta.serializedBytes / 20);
  });

  it("logs one info line per failed query, with its code", async () => {
    await proxy.logged('"msg":"query error"');
    expect(logLines("query error")).toEqual([
      expect.objectContaining({
        level: 30,
        tool: "query_response_artifact",
        code: "INVALID_ARTIFACT_HANDLE",
        artifactId: "AAAAAAAAAAAAAAAAAAAAAAAA",
      }),
    ]);
  });

  it("serves GET /metrics in the Prometheus text format without a token, like /healthz", async () => {
    const response = await fetch(new URL("/metrics", proxy.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const tool = '{tool="read_text_file"}';
    expect({
      calls: sample(text, `bounded_mcp_tool_calls_total${tool}`),
      bounded: sample(text, `bounded_mcp_bounded_calls_total${tool}`),
      queries: sample(text, `bounded_mcp_queries_total${tool}`),
      okQueries: sample(text, 'bounded_mcp_query_duration_seconds_count{outcome="ok"}'),
      failedQueries: sample(
        text,
        'bounded_mcp_query_duration_seconds_count{outcome="INVALID_ARTIFACT_HANDLE"}',
      ),
      storeErrors: sample(text, "bounded_mcp_store_errors_total"),
      sessions: sample(text, "bounded_mcp_sessions"),
    }).toEqual({
      calls: 1,
      bounded: 1,
      queries: 1,
      okQueries: 1,
      failedQueries: 1,
      storeErrors: 0,
      sessions: 1,
    });
    const received = sample(text, `bounded_mcp_bytes_received_total${tool}`) ?? 0;
    const sent = sample(text, `bounded_mcp_bytes_sent_total${tool}`) ?? 0;
    expect(received).toBeGreaterThan(1024 * 1024);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(received / 20);
    expect(text).toContain("# TYPE bounded_mcp_parse_cache_hits_total counter");
  });

  it("does not warn about tokens on loopback, and sums up its stats at exit", async () => {
    expect(proxy.stderr()).not.toContain("beyond loopback");
    await client.close();
    expect(await proxy.stop()).toBe(0);
    expect(logLines("stats at exit")).toEqual([
      expect.objectContaining({
        level: 30,
        calls: 1,
        boundedCalls: 1,
        queries: 2,
        parseCacheHits: 1,
      }),
    ]);
  });
});

describe("listening beyond loopback", () => {
  it("warns once when there are no --auth-tokens", async () => {
    const open = await startHttpProxy(["--listen", "http://0.0.0.0:0/mcp", ...upstream]);
    try {
      await open.logged("beyond loopback");
      expect(open.stderr().match(/beyond loopback/g)).toHaveLength(1);
    } finally {
      await open.stop();
    }
  });
});
