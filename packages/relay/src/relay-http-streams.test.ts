import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpUpstreamTransport } from "./http-upstream-transport.js";
import { LITERAL_STRUCTURED } from "./test-support/literal-http-upstream.js";
import {
  type RawStreamHttpUpstream,
  startRawStreamHttpUpstream,
} from "./test-support/raw-stream-http-upstream.js";
import { startResumableHttpUpstream } from "./test-support/resumable-http-upstream.js";
import { type StartedRelay, startRelay } from "./test-support/start-relay.js";
import {
  type Artifact,
  AS_SENT,
  queryText,
  sha256,
  storedText,
} from "./test-support/stored-answers.js";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayTo(url: string, name: string): Promise<StartedRelay> {
  const relay = await startRelay({ upstream: { kind: "http", url, name } });
  cleanups.push(() => relay.close());
  return relay;
}

function call(relay: StartedRelay, name: string): Promise<Record<string, unknown>> {
  return relay.downstream.request(
    { method: "tools/call", params: { name, arguments: {} } } as never,
    AS_SENT,
  );
}

async function artifactOf(relay: StartedRelay, name: string): Promise<Artifact> {
  const result = (await call(relay, name)) as {
    structuredContent: { responseMeta: { artifact: Artifact } };
  };
  return result.structuredContent.responseMeta.artifact;
}

/** The stored bytes, their length and sha256 are the upstream's text, and queries answer its literals. */
async function expectUpstreamBytes(relay: StartedRelay, artifact: Artifact): Promise<void> {
  expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
    byteLength: Buffer.byteLength(LITERAL_STRUCTURED),
    sha256: sha256(LITERAL_STRUCTURED),
  });
  expect(await storedText(relay, artifact.id)).toBe(LITERAL_STRUCTURED);
  expect(await queryText(relay, artifact.id, "/big")).toContain('"response":12345678901234567890');
  expect(await queryText(relay, artifact.id, "/negativeZero")).toContain('"response":-0');
}

async function rawUpstream(): Promise<{ upstream: RawStreamHttpUpstream; relay: StartedRelay }> {
  const upstream = await startRawStreamHttpUpstream();
  cleanups.push(() => upstream.close());
  const relay = await relayTo(upstream.url, "raw-stream-http");
  await relay.downstream.listTools(); // the tools' outputSchemas are known before any call
  return { upstream, relay };
}

/**
 * Calls `name` and checks that its answer is settled by the time an `echo` answered after it
 * on the same stream (`echoName`) has come back: it did not wait for the 10-minute timeout.
 */
async function callSettledAtOnce(
  { upstream, relay }: { upstream: RawStreamHttpUpstream; relay: StartedRelay },
  name: string,
  echoName: string,
): Promise<unknown> {
  let settled = false;
  const pending = call(relay, name).finally(() => {
    settled = true;
  });
  pending.catch(() => undefined);
  while (upstream.answered.length === 0) await new Promise((resolve) => setImmediate(resolve));
  await upstream.answered.shift();
  expect(await call(relay, echoName)).toEqual({ content: [{ type: "text", text: "ok" }] });
  expect(settled).toBe(true);
  return pending;
}

const NULL_RESULT_ERROR = {
  content: [
    {
      type: "text",
      text: 'upstream "raw-stream-http" answered tools/call with result null, not a result object; the call failed.',
    },
  ],
  isError: true,
};

describe("a tools/call answered on a streamable HTTP upstream's standalone GET stream (its POST got 202)", () => {
  it("stores structuredContent as the upstream's bytes (it was the value serialized again)", async () => {
    const { relay } = await rawUpstream();
    await expectUpstreamBytes(relay, await artifactOf(relay, "literal_get"));
  });

  it("becomes an error result at once when its result is null (the call waited for its timeout)", async () => {
    const started = await rawUpstream();
    expect(await callSettledAtOnce(started, "null_result_get", "echo_get")).toEqual(
      NULL_RESULT_ERROR,
    );
  });
});

describe("a tools/call answered after the upstream dropped its POST stream (a real SDK server with an EventStore; the client resumes with Last-Event-ID)", () => {
  it("stores structuredContent as the upstream's bytes (it was the value serialized again)", async () => {
    const upstream = await startResumableHttpUpstream();
    cleanups.push(() => upstream.close());
    const relay = await relayTo(upstream.url, "resumable-http");
    const artifact = await artifactOf(relay, "literal");
    expect(upstream.resumes).toBeGreaterThan(0);
    await expectUpstreamBytes(relay, artifact);
    expect(await call(relay, "small")).toEqual({
      content: [{ type: "text", text: "small" }],
      structuredContent: { small: true },
    });
  });
});

describe("a tools/call answered in a JSON-RPC batch by a streamable HTTP upstream", () => {
  it("stores structuredContent as the upstream's bytes from a JSON batch body (it was the value serialized again)", async () => {
    const { relay } = await rawUpstream();
    await expectUpstreamBytes(relay, await artifactOf(relay, "literal_batch"));
  });

  it("stores structuredContent as the upstream's bytes from an SSE event holding a batch (the SDK could not read it: the call waited for its timeout)", async () => {
    const { relay } = await rawUpstream();
    await expectUpstreamBytes(relay, await artifactOf(relay, "literal_batch_sse"));
  });

  it("becomes an error result at once when its result is null, in a JSON batch body or an SSE batch event", async () => {
    const started = await rawUpstream();
    expect(await callSettledAtOnce(started, "null_result_batch", "echo_batch")).toEqual(
      NULL_RESULT_ERROR,
    );
    expect(await callSettledAtOnce(started, "null_result_batch_sse", "echo_batch_sse")).toEqual(
      NULL_RESULT_ERROR,
    );
  });
});

describe("the texts the HTTP upstream transport holds for answers on the GET stream", () => {
  it("are attached to the structuredContent delivered, then released", async () => {
    const upstream = await startRawStreamHttpUpstream();
    cleanups.push(() => upstream.close());
    const transport = createHttpUpstreamTransport({ url: new URL(upstream.url), name: "raw" });
    const client = new Client({ name: "held-texts", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const literal = await client.request(
      { method: "tools/call", params: { name: "literal_get", arguments: {} } },
      AS_SENT,
    );
    await client.request(
      { method: "tools/call", params: { name: "literal_batch_sse", arguments: {} } },
      AS_SENT,
    );
    expect(transport.heldTexts).toBe(0);
    const received = (literal["structuredContent"] as Record<symbol, () => string>)[
      Symbol.for("@bounded-mcp/received-json")
    ];
    expect(received?.()).toBe(LITERAL_STRUCTURED);
  });
});
