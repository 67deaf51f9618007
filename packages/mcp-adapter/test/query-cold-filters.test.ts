import { QueryErrorResultSchema, QueryResultSchema } from "@bounded-mcp/contract";
import { createMemoryStore } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { itemsPayload, jsonBytes } from "./support/fixtures.js";
import {
  type Connection,
  connectLowLevelServer,
  connectTwoCallers,
  createTestAdapter,
  TEST_NOW,
} from "./support/harness.js";

// A filtered or projected query of an artifact this process has not parsed (a second adapter
// over the same store, as after a restart) is answered from the stored bytes by query-core's
// runPartialQuery, exactly like the warm answer; the artifact is then parsed in the background.

const payload = itemsPayload(600);
const BYTE_PATH = "answered a query from the stored bytes without parsing the artifact";

const adapters: BoundedMcp[] = [];
let connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections) await connection.close();
  connections = [];
  for (const adapter of adapters.splice(0)) await adapter.dispose();
});

async function query(connection: Connection, argumentsValue: Record<string, unknown>) {
  return (await connection.client.callTool({
    name: "query_response_artifact",
    arguments: argumentsValue,
  })) as CallToolResult;
}

/** A warm adapter that stored the payload, and a second one over the same store. */
async function twoAdapters() {
  const artifactStore = createMemoryStore({ clock: () => TEST_NOW });
  const warm = createTestAdapter({ artifactStore });
  adapters.push(warm);
  const { alice, bob, id } = await connectTwoCallers(warm, payload);
  connections.push(alice, bob);
  const logger = createRecordingLogger();
  const restarted = createTestAdapter({ artifactStore, logger });
  adapters.push(restarted);
  const tools = { fixture: { result: () => ({ content: [] }) } };
  const cold = await connectLowLevelServer(restarted, tools, { sessionId: "alice" });
  connections.push(cold);
  return { alice, cold, id, logger, restarted };
}

describe("cold filtered queries through the adapter", () => {
  it("answers a filtered, projected page from the stored bytes like the warm adapter, then parses in the background", async () => {
    const { alice, cold, id, logger, restarted } = await twoAdapters();
    const request = {
      artifactId: id,
      responsePath: "/data/items",
      filters: [
        { path: "/status", value: "active" },
        { path: "/tags", op: "icontains", value: "GROUP-3" },
      ],
      fields: ["id", "/score"],
      pageSize: 5,
    };
    const warmPage = await query(alice, request);
    const coldPage = await query(cold, request);
    expect(coldPage).toEqual(warmPage);
    const page = QueryResultSchema.parse(coldPage.structuredContent);
    expect(page.responseMeta.totalCount).toBe(
      payload.data.items.filter((item) => item.status === "active" && item.tags.includes("group-3"))
        .length,
    );
    expect(logger.records).toEqual([
      {
        level: "debug",
        message: BYTE_PATH,
        fields: { artifactId: id, byteLength: jsonBytes(payload) },
      },
    ]);
    // The background parse: the next page hits the parse cache and continues the same view.
    await new Promise((resolve) => setImmediate(resolve));
    const next = { ...request, cursor: page.responseMeta.nextCursor };
    expect(await query(cold, next)).toEqual(await query(alice, next));
    expect(restarted.stats().tools.query_response_artifact).toMatchObject({
      queries: 2,
      parseCacheHits: 1,
      parseCacheMisses: 1,
    });
    expect(logger.records).toHaveLength(1);
  });

  it("parses instead when a filter path resolves on no item, giving the warm adapter's error", async () => {
    const { alice, cold, id, logger } = await twoAdapters();
    const request = {
      artifactId: id,
      responsePath: "/data/items",
      filters: [{ path: "/Status", value: "active" }],
    };
    const warmError = await query(alice, request);
    expect(QueryErrorResultSchema.parse(warmError.structuredContent).response.error.code).toBe(
      "FILTER_PATH_UNRESOLVED",
    );
    expect(await query(cold, request)).toEqual(warmError);
    expect(logger.records.map((record) => record.message)).not.toContain(BYTE_PATH);
  });
});
