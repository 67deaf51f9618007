import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema, QueryResultSchema } from "@bounded-mcp/contract";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { OFF_THREAD_HASH_MIN_BYTES } from "../src/bounding/encode-payload.js";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import {
  type Connection,
  connectLowLevelServer,
  createTestAdapter,
  TEST_NOW,
} from "./support/harness.js";

// SPEC.md §10: number literals a double does not hold reach the model as the upstream wrote them.
// The upstream's text: two integers that parse to one double, overflow, -0, too many digits,
// underflow, then exact fillers so the result is bounded.
const SPECIAL =
  '{"id":12345678901234567889,"huge":1e400,"neg":-0,"tenth":0.30000000000000000001,"tiny":1e-400},' +
  '{"id":12345678901234567890}';
const FILLERS = Array.from(
  { length: 600 },
  (_, index) => `{"id":${1000 + index},"name":"filler item number ${index} with some text"}`,
);
const UPSTREAM_TEXT = `{"success":true,"data":{"items":[${SPECIAL},${FILLERS.join(",")}]}}`;
/**
 * The same items behind a padding string, so the payload is hashed and tested for inexact
 * candidates on the helper thread while the bounder parses it plainly (encode-payload.ts).
 */
const LARGE_UPSTREAM_TEXT = `{"success":true,"pad":"${"x".repeat(OFF_THREAD_HASH_MIN_BYTES)}","data":{"items":[${SPECIAL},${FILLERS.join(",")}]}}`;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function connectAdapter(
  bounded: BoundedMcp,
  upstreamText = UPSTREAM_TEXT,
): Promise<Connection> {
  const result = (): CallToolResult => ({ content: [{ type: "text", text: upstreamText }] });
  const connection = await connectLowLevelServer(bounded, { fixture: { result } });
  cleanup.push(async () => {
    await connection.close();
    await bounded.dispose();
  });
  return connection;
}

/** The one text block of a result and its structuredContent, checked to be the text's JSON value. */
function textOf(result: CallToolResult): string {
  const [block] = result.content;
  if (block?.type !== "text") throw new Error("no text block");
  // structuredContent is JSON.parse of the text (1e400 is null there, -0 is 0).
  expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(JSON.parse(block.text))));
  return block.text;
}

/** Calls the upstream tool through the adapter: the bounded envelope's text and artifact id. */
async function boundedCall(connection: Connection): Promise<{ text: string; id: string }> {
  const result = (await connection.client.callTool({
    name: "fixture",
    arguments: {},
  })) as CallToolResult;
  const text = textOf(result);
  const envelope = BoundedEnvelopeSchema.parse(result.structuredContent);
  return { text, id: envelope.responseMeta.artifact.id };
}

async function query(connection: Connection, argumentsValue: Record<string, unknown>) {
  const result = (await connection.client.callTool({
    name: "query_response_artifact",
    arguments: argumentsValue,
  })) as CallToolResult;
  expect(result.isError).toBeUndefined();
  const text = textOf(result);
  return { text, meta: QueryResultSchema.parse(result.structuredContent).responseMeta };
}

/** The answers every read path must give for the artifact. */
async function expectExactAnswers(connection: Connection, id: string): Promise<void> {
  const page = await query(connection, {
    artifactId: id,
    responsePath: "/data/items",
    pageSize: 2,
  });
  expect(page.text).toContain(
    `"response":[{"id":12345678901234567889,"huge":1e400,"neg":-0,"tenth":0.30000000000000000001,"tiny":1e-400},{"id":12345678901234567890}]`,
  );
  expect(page.meta.inexactNumbers).toEqual({
    pointers: ["/0/id", "/0/huge", "/0/neg", "/0/tenth", "/0/tiny", "/1/id"],
    total: 6,
  });
  expect(page.meta.serializedBytes).toBe(Buffer.byteLength(page.text));

  // 12345678901234567000 reads back as the double both big literals parse to: only their
  // exact values are greater.
  const greater = await query(connection, {
    artifactId: id,
    responsePath: "/data/items",
    fields: ["id"],
    filters: [{ path: "id", op: "gt", value: 12345678901234567000 }],
  });
  expect(greater.text).toContain(
    '"response":[{"id":12345678901234567889},{"id":12345678901234567890}]',
  );
  expect(greater.meta.inexactNumbers).toEqual({ pointers: ["/0/id", "/1/id"], total: 2 });

  const sorted = await query(connection, {
    artifactId: id,
    responsePath: "/data/items",
    fields: ["id"],
    sort: [{ path: "id", order: "desc" }],
    pageSize: 3,
  });
  expect(sorted.text).toContain(
    '"response":[{"id":12345678901234567890},{"id":12345678901234567889},{"id":1599}]',
  );

  const plain = await query(connection, {
    artifactId: id,
    responsePath: "/data/items",
    fields: ["name"],
    pageSize: 3,
  });
  expect(plain.meta).not.toHaveProperty("inexactNumbers");
}

describe("exact numbers through the adapter (SPEC.md §10)", () => {
  it("writes the upstream's literals in the preview and lists them relative to data", async () => {
    const connection = await connectAdapter(createTestAdapter());
    const { text } = await boundedCall(connection);
    expect(text).toContain(
      '{"id":12345678901234567889,"huge":1e400,"neg":-0,"tenth":0.30000000000000000001,"tiny":1e-400}',
    );
    const envelope = JSON.parse(text) as { responseMeta: { inexactNumbers?: unknown } };
    expect(envelope.responseMeta.inexactNumbers).toEqual({
      pointers: [
        "/data/items/0/id",
        "/data/items/0/huge",
        "/data/items/0/neg",
        "/data/items/0/tenth",
        "/data/items/0/tiny",
        "/data/items/1/id",
      ],
      total: 6,
    });
  });

  it("writes them in a bounded error's preview too (a result over artifactMaxBytes)", async () => {
    const bounded = createTestAdapter({ inlineBytes: 16_384, artifactMaxBytes: 20_000 });
    const connection = await connectAdapter(bounded);
    const result = (await connection.client.callTool({
      name: "fixture",
      arguments: {},
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('"code":"ARTIFACT_TOO_LARGE"');
    expect(text).toContain('{"id":12345678901234567889,"huge":1e400,"neg":-0,');
    expect(JSON.parse(text).responseMeta.inexactNumbers).toMatchObject({ total: 6 });
  });

  it("answers queries exactly from the parse cache", async () => {
    const connection = await connectAdapter(createTestAdapter());
    const { id } = await boundedCall(connection);
    await expectExactAnswers(connection, id);
  });

  it("answers the same from the stored bytes (no parse cache: the byte scan and a parse of them)", async () => {
    const connection = await connectAdapter(createTestAdapter({ parseCacheBytes: 0 }));
    const { id } = await boundedCall(connection);
    await expectExactAnswers(connection, id);
  });

  it("answers the same for a payload tested on the hashing thread (parsed plainly, then exactly)", async () => {
    const connection = await connectAdapter(createTestAdapter(), LARGE_UPSTREAM_TEXT);
    const { id } = await boundedCall(connection);
    await expectExactAnswers(connection, id);
  });

  it("answers the same from the stored bytes of such a payload (tested off-thread when parsed)", async () => {
    const bounded = createTestAdapter({ parseCacheBytes: 0 });
    const connection = await connectAdapter(bounded, LARGE_UPSTREAM_TEXT);
    const { id } = await boundedCall(connection);
    await expectExactAnswers(connection, id);
  });

  it("answers the same from another adapter over the same fs store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "adapter-exact-numbers-"));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const storeOver = () => createFsStore({ dir, clock: () => TEST_NOW, sweepIntervalMs: 0 });
    const first = await connectAdapter(createTestAdapter({ artifactStore: storeOver() }));
    const { id } = await boundedCall(first);
    const replica = await connectAdapter(createTestAdapter({ artifactStore: storeOver() }));
    await expectExactAnswers(replica, id);
  });
});
