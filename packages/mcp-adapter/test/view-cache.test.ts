import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { itemsPayload } from "./support/fixtures.js";
import { type Connection, connectTwoCallers, createTestAdapter } from "./support/harness.js";

// The viewCacheBytes setting reaches query-core's view cache: the same views paged through the
// real adapter (SDK Client, InMemoryTransport) with the default cache and with none give the
// same text on every page.

const payload = itemsPayload(600);
const adapters: BoundedMcp[] = [];
const connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  for (const adapter of adapters.splice(0)) await adapter.dispose();
});

async function pageTexts(viewCacheBytes: number | undefined, view: Record<string, unknown>) {
  const bounded = createTestAdapter(viewCacheBytes === undefined ? {} : { viewCacheBytes });
  adapters.push(bounded);
  const { alice, bob, id } = await connectTwoCallers(bounded, payload);
  connections.push(alice, bob);
  const texts: string[] = [];
  let cursor: string | null = null;
  do {
    const result = (await alice.client.callTool({
      name: "query_response_artifact",
      arguments: { artifactId: id, ...view, ...(cursor === null ? {} : { cursor }) },
    })) as CallToolResult;
    const first = result.content[0];
    texts.push(first?.type === "text" ? first.text : "");
    const meta = (result.structuredContent as { responseMeta?: { nextCursor?: string | null } })
      .responseMeta;
    cursor = meta?.nextCursor ?? null;
  } while (cursor !== null && texts.length < 40);
  return { texts, settings: bounded.settings };
}

describe("the view cache through the adapter", () => {
  it("pages a filtered, sorted view the same with the default cache and with none", async () => {
    const view = {
      responsePath: "/data/items",
      filters: [{ path: "/status", op: "ne", value: "draft" }],
      sort: [{ path: "/score", order: "desc" }],
      fields: ["id", "score"],
      pageSize: 25,
    };
    const cached = await pageTexts(undefined, view);
    const uncached = await pageTexts(0, view);
    expect(cached.settings.viewCacheBytes).toBe(64 * 1024 * 1024);
    expect(uncached.settings.viewCacheBytes).toBe(0);
    expect(cached.texts.length).toBe(16);
    expect(cached.texts).toEqual(uncached.texts);
  });

  it("pages aggregate rows the same with the default cache and with none", async () => {
    const view = {
      responsePath: "/data/items",
      aggregate: { groupBy: "/tags", unwind: true },
      pageSize: 3,
    };
    const cached = await pageTexts(undefined, view);
    expect(cached.texts.length).toBe(5);
    expect(cached.texts).toEqual((await pageTexts(0, view)).texts);
  });
});
