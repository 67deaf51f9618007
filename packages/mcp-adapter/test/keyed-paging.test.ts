import { createMemoryStore } from "@bounded-mcp/stores";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { createRecordingLogger } from "../src/testing/recording-logger.js";
import { fixtureItem, jsonTextResult } from "./support/fixtures.js";
import {
  type Connection,
  connectLowLevelServer,
  createTestAdapter,
  TEST_NOW,
} from "./support/harness.js";

// Deep pages of a keyed object and of an array, answered by an adapter holding the parsed
// document (parse cache) and by one reading the stored bytes for every page (parse cache off:
// runPartialQuery for plain array pages, a full parse otherwise), on one store and one key ring.
// Real SDK Clients and Servers over InMemoryTransport.

const KEYS = 3_000;
const PAGES = 30;
const keyOf = (index: number) => `k${String(index).padStart(7, "0")}`;
const payload = {
  byKey: Object.fromEntries(
    Array.from({ length: KEYS }, (_, index) => [keyOf(index), { n: index, tag: `t${index % 7}` }]),
  ),
  rows: Array.from({ length: KEYS }, (_, index) => fixtureItem(index)),
};
const FROM_BYTES = "answered a query from the stored bytes without parsing the artifact";

const adapters: BoundedMcp[] = [];
const connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  for (const adapter of adapters.splice(0)) await adapter.dispose();
});

async function connect(options: Parameters<typeof createTestAdapter>[0]) {
  const bounded = createTestAdapter(options);
  adapters.push(bounded);
  const connection = await connectLowLevelServer(
    bounded,
    { keyed: { result: () => jsonTextResult(payload) } },
    { sessionId: "alice" },
  );
  connections.push(connection);
  return async (argumentsValue: Record<string, unknown>) =>
    (await connection.client.callTool({
      name: "query_response_artifact",
      arguments: argumentsValue,
    })) as CallToolResult;
}

describe("deep pages from the parse cache and from the stored bytes", () => {
  it.each([
    { what: "a keyed object, plain", request: { responsePath: "/byKey" }, fromBytes: false },
    {
      what: "a keyed object, objectMode entries",
      request: { responsePath: "/byKey", objectMode: "entries" },
      fromBytes: false,
    },
    { what: "an array, plain", request: { responsePath: "/rows" }, fromBytes: true },
  ])(
    "gives the same text for every page of $what, following nextCursor",
    async ({ request, fromBytes }) => {
      const artifactStore = createMemoryStore({
        maxBytes: 64 * 1024 * 1024,
        clock: () => TEST_NOW,
      });
      const logger = createRecordingLogger();
      const warm = await connect({ artifactStore });
      const cold = await connect({ artifactStore, parseCacheBytes: 0, logger });
      const bound = connections[0]!.client.callTool({ name: "keyed", arguments: {} });
      const artifactId = (
        (await bound).structuredContent as { responseMeta: { artifact: { id: string } } }
      ).responseMeta.artifact.id;

      let cursor: string | undefined;
      const seen: unknown[] = [];
      for (let page = 1; page <= PAGES; page += 1) {
        const pageRequest = { artifactId, pageSize: 50, ...request, ...(cursor ? { cursor } : {}) };
        const fromCache = await warm(pageRequest);
        const fromStore = await cold(pageRequest);
        expect(fromCache.isError).toBeUndefined();
        expect(fromStore.content).toEqual(fromCache.content);
        expect(fromStore.structuredContent).toEqual(fromCache.structuredContent);
        const body = fromCache.structuredContent as {
          response: unknown;
          responseMeta: { nextCursor: string | null; remainingCount: number };
        };
        expect(body.responseMeta.remainingCount).toBe(KEYS - page * 50);
        seen.push(JSON.stringify(body.response));
        cursor = body.responseMeta.nextCursor ?? undefined;
      }
      // Every page holds other members: the cursors moved through the collection.
      expect(seen.length).toBe(PAGES);
      expect(new Set(seen).size).toBe(PAGES);
      // Which path the cold adapter took: the byte scan for array pages, a full parse for objects.
      const answeredFromBytes = logger.records.filter((record) => record.message === FROM_BYTES);
      expect(answeredFromBytes.length).toBe(fromBytes ? PAGES : 0);
    },
  );
});
