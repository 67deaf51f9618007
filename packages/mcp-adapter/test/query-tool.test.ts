import { QueryErrorResultSchema, QueryResultSchema } from "@bounded-mcp/contract";
import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { itemsPayload, jsonBytes } from "./support/fixtures.js";
import {
  artifactOf,
  type Connection,
  connectLowLevelServer,
  connectTwoCallers,
  createTestAdapter,
  TEST_NOW,
  UNKNOWN_ID,
} from "./support/harness.js";

const ITEM_COUNT = 1_000;
const payload = itemsPayload(ITEM_COUNT);

let bounded: BoundedMcp;
let connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections) await connection.close();
  connections = [];
  await bounded.dispose();
});

async function setUp(options: Parameters<typeof createTestAdapter>[0] = {}) {
  bounded = createTestAdapter(options);
  const callers = await connectTwoCallers(bounded, payload);
  connections.push(callers.alice, callers.bob);
  return callers;
}

/** Calls the query tool and checks SPEC.md §5: the same JSON in structuredContent and text. */
async function query(connection: Connection, argumentsValue: Record<string, unknown>) {
  const result = (await connection.client.callTool({
    name: "query_response_artifact",
    arguments: argumentsValue,
  })) as CallToolResult;
  expect(result.content).toEqual([
    { type: "text", text: JSON.stringify(result.structuredContent) },
  ]);
  expect(jsonBytes(result.structuredContent)).toBeLessThanOrEqual(32_768);
  return result;
}

function errorOf(result: CallToolResult) {
  expect(result.isError).toBe(true);
  return QueryErrorResultSchema.parse(result.structuredContent);
}

function successOf(result: CallToolResult) {
  expect(result.isError).toBeUndefined();
  return QueryResultSchema.parse(result.structuredContent);
}

describe("query_response_artifact", () => {
  it("describes the artifact, then pages with cursors through every item exactly once", async () => {
    const { alice, id } = await setUp();
    const shape = successOf(
      await query(alice, { artifactId: id, describe: true, responsePath: "/data/items" }),
    );
    expect(shape.shape).toMatchObject({ type: "array", length: ITEM_COUNT });
    const request = { artifactId: id, responsePath: "/data/items", fields: ["id"], pageSize: 100 };
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = successOf(
        await query(alice, cursor === null ? request : { ...request, cursor }),
      );
      seen.push(...(page.response as { id: string }[]).map((item) => item.id));
      expect(page.responseMeta.totalCount).toBe(ITEM_COUNT);
      cursor = page.responseMeta.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 50);
    expect(seen).toEqual(payload.data.items.map((item) => item.id));
    expect(new Set(seen).size).toBe(ITEM_COUNT);
  });

  it("filters and projects a page", async () => {
    const { alice, id } = await setUp();
    const page = successOf(
      await query(alice, {
        artifactId: id,
        responsePath: "/data/items",
        filters: [
          { path: "/status", value: "draft" },
          { path: "/score", op: "lt", value: 100 },
        ],
        fields: ["id", "score"],
      }),
    );
    const expected = payload.data.items
      .filter((item) => item.status === "draft" && item.score < 100)
      .map(({ id: itemId, score }) => ({ id: itemId, score }));
    expect(page.response).toEqual(expected.slice(0, 20));
    expect(page.responseMeta.totalCount).toBe(expected.length);
  });

  it("answers another scope exactly as it answers an unknown id", async () => {
    const { bob, id } = await setUp();
    const otherScope = errorOf(await query(bob, { artifactId: id, describe: true }));
    const unknown = errorOf(await query(bob, { artifactId: UNKNOWN_ID, describe: true }));
    expect(otherScope.response.error).toEqual({
      code: "INVALID_ARTIFACT_HANDLE",
      message:
        "No artifact with this id is available to this caller. Pass responseMeta.artifact.id exactly as received, or call the original tool again to get a new artifact.",
      details: { reason: "unknown" },
    });
    expect(otherScope.artifactId).toBe(id);
    expect(JSON.stringify(unknown).replaceAll(UNKNOWN_ID, id)).toBe(JSON.stringify(otherScope));
  });

  it("refuses another scope from metadata alone, never reading or parsing the body", async () => {
    const memory = createMemoryStore({ clock: () => TEST_NOW });
    const reads: string[] = [];
    const counting: ArtifactStore = {
      ...memory,
      get: async (artifactId) => {
        reads.push(`get ${artifactId}`);
        return memory.get(artifactId);
      },
      head: async (artifactId) => {
        reads.push(`head ${artifactId}`);
        return memory.head(artifactId);
      },
    };
    const { alice, bob, id } = await setUp({ artifactStore: counting, parseCacheBytes: 0 });
    reads.length = 0;
    errorOf(await query(bob, { artifactId: id, describe: true }));
    expect(reads).toEqual([`head ${id}`]);
    const own = await query(alice, { artifactId: id, describe: true });
    expect(own.isError).toBeUndefined();
    expect(reads).toEqual([`head ${id}`, `head ${id}`, `get ${id}`]);
  });

  it("rejects a cursor sent back with changed arguments", async () => {
    const { alice, id } = await setUp();
    const request = { artifactId: id, responsePath: "/data/items", fields: ["id"] };
    const first = successOf(await query(alice, request));
    const cursor = first.responseMeta.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const changed = errorOf(await query(alice, { ...request, fields: ["name"], cursor }));
    expect(changed.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CURSOR",
      details: { reason: "mismatch" },
    });
  });

  it("rejects a cursor replayed by another scope, on the artifact and on its own copy", async () => {
    const { alice, bob, id } = await setUp();
    const request = { artifactId: id, responsePath: "/data/items", fields: ["id"] };
    const cursor = successOf(await query(alice, request)).responseMeta.nextCursor;
    const replayed = errorOf(await query(bob, { ...request, cursor }));
    expect(replayed.response.error).toMatchObject({
      code: "INVALID_ARTIFACT_HANDLE",
      details: { reason: "unknown" },
    });
    const unknown = errorOf(await query(bob, { ...request, artifactId: UNKNOWN_ID, cursor }));
    expect(JSON.stringify(unknown).replaceAll(UNKNOWN_ID, id)).toBe(JSON.stringify(replayed));

    const bobsId = await artifactOf(bob);
    expect(bobsId).not.toBe(id);
    const onOwnCopy = errorOf(await query(bob, { ...request, artifactId: bobsId, cursor }));
    expect(onOwnCopy.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CURSOR",
      details: { reason: "mismatch" },
    });
    // Exactly what bob gets for his own cursor of another view: nothing tells it came from alice.
    const ownView = { ...request, artifactId: bobsId, fields: ["name"] };
    const ownCursor = successOf(await query(bob, ownView)).responseMeta.nextCursor;
    const otherView = errorOf(
      await query(bob, { ...request, artifactId: bobsId, cursor: ownCursor }),
    );
    expect(JSON.stringify(otherView).replaceAll(String(ownCursor), String(cursor))).toBe(
      JSON.stringify(onOwnCopy),
    );
  });

  it("answers {artifact_id} with INVALID_RESPONSE_CONTROLS and the camelCase suggestedKey", async () => {
    const { alice, id } = await setUp();
    const error = errorOf(await query(alice, { artifact_id: id }));
    expect(error.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CONTROLS",
      details: { suggestedKey: "artifactId" },
    });
    expect(error.responseMeta).toMatchObject({
      contractVersion: 3,
      returnedCount: 0,
      nextCursor: null,
    });
  });

  it("answers pageSize 0 with an INVALID_RESPONSE_CONTROLS envelope naming the field", async () => {
    const { alice, id } = await setUp();
    const error = errorOf(await query(alice, { artifactId: id, pageSize: 0 }));
    expect(error.artifactId).toBe(id);
    expect(error.response.error).toMatchObject({
      code: "INVALID_RESPONSE_CONTROLS",
      details: { field: "pageSize" },
    });
  });

  it("answers a malformed id with INVALID_ARTIFACT_HANDLE invalid_id", async () => {
    const { alice } = await setUp();
    const error = errorOf(await query(alice, { artifactId: "../etc/passwd" }));
    expect(error.response.error).toEqual({
      code: "INVALID_ARTIFACT_HANDLE",
      message:
        "artifactId is not an artifact id. Pass responseMeta.artifact.id of a bounded tool result exactly as received.",
      details: { reason: "invalid_id" },
    });
  });

  it("reports an artifact past its lifetime as expired", async () => {
    let now = TEST_NOW;
    const { alice, id } = await setUp({ clock: () => now });
    now += 86_400_000;
    const error = errorOf(await query(alice, { artifactId: id, describe: true }));
    expect(error.response.error).toEqual({
      code: "INVALID_ARTIFACT_HANDLE",
      message:
        "This artifact has expired (artifacts are kept for 24 hours). Call the original tool again to get a new artifact.",
      details: { reason: "expired" },
    });
  });

  it("serves repeated queries from the parse cache and counts the hits", async () => {
    const { alice, id } = await setUp();
    await query(alice, { artifactId: id, describe: true });
    await query(alice, { artifactId: id, responsePath: "/data/items", pageSize: 1 });
    expect(bounded.stats().tools.fixture).toMatchObject({
      queries: 2,
      parseCacheHits: 2,
      parseCacheMisses: 0,
      parseCacheHitRate: 1,
    });
  });

  it("answers a plain page of an artifact not parsed in this process from its stored bytes", async () => {
    const artifactStore = createMemoryStore({ clock: () => TEST_NOW });
    const { alice, id } = await setUp({ artifactStore });
    const firstPage = { artifactId: id, responsePath: "/data/items", pageSize: 3 };
    const warm = successOf(await query(alice, firstPage));
    // Another adapter over the same store, as after a restart or in a second process.
    const logger = createRecordingLogger();
    const restarted = createTestAdapter({ artifactStore, logger });
    const tools = { fixture: { result: () => ({ content: [] }) } };
    const later = await connectLowLevelServer(restarted, tools, { sessionId: "alice" });
    connections.push(later);
    try {
      const cold = successOf(await query(later, firstPage));
      expect(cold).toEqual(warm);
      expect(logger.records).toEqual([
        {
          level: "debug",
          message: "answered a query from the stored bytes without parsing the artifact",
          fields: { artifactId: id, byteLength: jsonBytes(payload) },
        },
      ]);
      // The artifact is then parsed in the background: the next queries hit the parse cache.
      await new Promise((resolve) => setImmediate(resolve));
      const nextPage = { ...firstPage, cursor: cold.responseMeta.nextCursor };
      expect(successOf(await query(later, nextPage))).toEqual(
        successOf(await query(alice, nextPage)),
      );
      await query(later, { artifactId: id, describe: true });
      expect(restarted.stats().tools.query_response_artifact).toMatchObject({
        queries: 3,
        parseCacheHits: 2,
        parseCacheMisses: 1,
      });
    } finally {
      await restarted.dispose();
    }
  });

  it("answers plain pages from the stored bytes each time when the parse cache is off", async () => {
    const logger = createRecordingLogger();
    const { alice, id } = await setUp({ parseCacheBytes: 0, logger });
    const firstPage = { artifactId: id, responsePath: "/data/items", pageSize: 2 };
    const page = successOf(await query(alice, firstPage));
    successOf(await query(alice, { ...firstPage, cursor: page.responseMeta.nextCursor }));
    expect(logger.records.map((record) => record.message)).toEqual([
      "answered a query from the stored bytes without parsing the artifact",
      "answered a query from the stored bytes without parsing the artifact",
    ]);
  });

  it("re-reads the store for every query when the parse cache is disabled (answered from its bytes)", async () => {
    const { alice, id } = await setUp({ parseCacheBytes: 0 });
    const page = successOf(
      await query(alice, {
        artifactId: id,
        responsePath: "/data/items",
        fields: ["id"],
        pageSize: 2,
      }),
    );
    expect(page.response).toEqual([{ id: "item-000000" }, { id: "item-000001" }]);
    expect(bounded.stats().tools.query_response_artifact).toMatchObject({
      queries: 1,
      parseCacheHits: 0,
      parseCacheMisses: 1,
    });
  });
});

describe("tools/list", () => {
  it("shows the query tool with its compact schemas, annotations and a short description", async () => {
    const { alice } = await setUp();
    const { tools } = await alice.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["fixture", "query_response_artifact"]);
    const queryTool = tools[1];
    expect(queryTool?.description?.length).toBeLessThan(1500);
    expect(queryTool?.annotations).toEqual({
      title: "Query a stored tool result",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(queryTool?.inputSchema).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["artifactId"],
    });
    expect(queryTool).toMatchSnapshot();
  });
});

describe("§9 extensions through the adapter", () => {
  it("passes responseMeta.extensions, aggregateSkipped and rows through to a client that checks the outputSchema", async () => {
    const { alice, id } = await setUp();
    // Listing the tools makes the SDK Client validate every result against the outputSchema.
    await alice.client.listTools();
    const rows = successOf(
      await query(alice, {
        artifactId: id,
        responsePath: "/data/items",
        filters: [{ path: "/status", op: "nin", value: ["draft"] }],
        aggregate: {
          groupBy: "/status",
          metrics: [{ op: "count" }, { op: "max", path: "/score" }],
        },
      }),
    );
    expect(rows.response).toEqual([
      { "/status": "active", count: 334, "max(/score)": 999 },
      { "/status": "archived", count: 333, "max(/score)": 925 },
    ]);
    expect(rows.responseMeta).toMatchObject({
      extensions: ["aggregate", "nin"],
      aggregateSkipped: 0,
      pageUnit: "rows",
      totalCount: 2,
    });
    const top = successOf(
      await query(alice, {
        artifactId: id,
        responsePath: "/data/items",
        sort: [{ path: "/score", order: "desc" }],
        fields: ["id", "score"],
        pageSize: 2,
      }),
    );
    expect(top.response).toEqual([
      { id: "item-000027", score: 999 },
      { id: "item-000054", score: 998 },
    ]);
    expect(top.responseMeta.extensions).toEqual(["sort"]);
  });
});
