import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { itemsPayload, jsonTextResult } from "../../test/support/fixtures.js";
import {
  type Connection,
  connectLowLevelServer,
  createTestAdapter,
} from "../../test/support/harness.js";
import type { BoundedMcp } from "../server/create-bounded-mcp.js";

// SPEC.md §9 rule 6 through the real adapter: a real SDK Client and Server over InMemoryTransport.

const MIB = 1024 * 1024;
const TEXT_CHARS = 60 * MIB;
/** Where "needle" occurs in the 60 MiB string: nine times, 6 MiB apart. */
const NEEDLES = Array.from({ length: 9 }, (_, index) => (index + 1) * 6 * MIB);

function longText(): string {
  const chunks: string[] = [];
  let at = 0;
  for (const offset of NEEDLES) {
    chunks.push("x".repeat(offset - at), "needle");
    at = offset + 6;
  }
  chunks.push("x".repeat(TEXT_CHARS - at));
  return chunks.join("");
}

/**
 * The query clock: one virtual millisecond per read, so slices and the work limit depend on how
 * much work was done, never on the machine's speed. `onRead` runs on a chosen read.
 */
function createQueryClock() {
  const clock = { time: 0, reads: 0, onRead: new Map<number, () => void>() };
  const now = () => {
    clock.reads += 1;
    clock.onRead.get(clock.reads)?.();
    clock.time += 1;
    return clock.time;
  };
  return { clock, now };
}

let bounded: BoundedMcp | undefined;
const connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  await bounded?.dispose();
});

async function callQuery(connection: Connection, argumentsValue: Record<string, unknown>) {
  const result = (await connection.client.callTool({
    name: "query_response_artifact",
    arguments: argumentsValue,
  })) as CallToolResult;
  expect(result.content).toEqual([
    { type: "text", text: JSON.stringify(result.structuredContent) },
  ]);
  // biome-ignore lint/suspicious/noExplicitAny: the test reads envelope members.
  return result.structuredContent as any;
}

describe("fairness between callers (§9 rule 6)", () => {
  it("answers a cheap query of a second caller while a textSearch over a 60 MiB string runs, and the search resumes with its cursor", async () => {
    const { clock, now } = createQueryClock();
    bounded = createTestAdapter({ queryClock: now });
    const tools = {
      big: { result: () => jsonTextResult({ text: longText() }) },
      small: { result: () => jsonTextResult(itemsPayload(200)) },
    };
    const alice = await connectLowLevelServer(bounded, tools, { sessionId: "alice" });
    const bob = await connectLowLevelServer(bounded, tools, { sessionId: "bob" });
    connections.push(alice, bob);
    const idOf = async (connection: Connection, name: string) =>
      (
        (await connection.client.callTool({ name, arguments: {} })).structuredContent as {
          responseMeta: { artifact: { id: string } };
        }
      ).responseMeta.artifact.id;
    const bigId = await idOf(alice, "big");
    const smallId = await idOf(bob, "small");
    // Parse alice's artifact before the race, so only the scan runs while bob asks.
    await callQuery(alice, { artifactId: bigId, responsePath: "/text", describe: true });

    const search = { artifactId: bigId, responsePath: "/text", textSearch: { query: "NEEDLE" } };
    const order: string[] = [];
    let bobAnswer: Promise<unknown> | undefined;
    // Bob sends his cheap query from inside alice's scan (its tenth clock read).
    clock.onRead.set(clock.reads + 10, () => {
      order.push("bob sent");
      bobAnswer = callQuery(bob, {
        artifactId: smallId,
        responsePath: "/data/items",
        fields: ["id"],
        pageSize: 2,
      }).then((page) => {
        order.push("bob answered");
        return page;
      });
    });
    const first = await callQuery(alice, search).then((page) => {
      order.push("alice answered");
      return page;
    });
    expect(order).toEqual(["bob sent", "bob answered", "alice answered"]);
    expect(((await bobAnswer) as { response: unknown }).response).toEqual([
      { id: "item-000000" },
      { id: "item-000001" },
    ]);

    expect(first.responseMeta).toMatchObject({
      truncated: true,
      complete: false,
      truncationReason: "work_limit",
      remainingCount: null,
      pageUnit: "matches",
    });
    expect(first.responseMeta.totalCount).toBe(first.response.length);
    expect(first.responseMeta.totalCount).toBeLessThan(NEEDLES.length);
    expect(typeof first.responseMeta.nextCursor).toBe("string");

    // Following the cursor resumes the scan where it stopped: every needle once, in order.
    const offsets: number[] = first.response.map((match: { offset: number }) => match.offset);
    let page = first;
    let calls = 1;
    while (page.responseMeta.nextCursor !== null && calls < 20) {
      page = await callQuery(alice, { ...search, cursor: page.responseMeta.nextCursor });
      offsets.push(...page.response.map((match: { offset: number }) => match.offset));
      calls += 1;
    }
    expect(offsets).toEqual(NEEDLES);
    expect(page.responseMeta).toMatchObject({
      truncationReason: null,
      totalCount: NEEDLES.length,
      remainingCount: 0,
      nextCursor: null,
    });
    expect(calls).toBeGreaterThan(2);
  });

  it("stops a textSearch where the queryWorkMs setting says: a larger limit scans further per call", async () => {
    const firstPageOf = async (queryWorkMs: number) => {
      const { now } = createQueryClock();
      const adapter = createTestAdapter({ queryClock: now, queryWorkMs });
      expect(adapter.settings.queryWorkMs).toBe(queryWorkMs);
      expect(adapter.settings.limits.queryWorkMs).toBe(queryWorkMs);
      const tools = { big: { result: () => jsonTextResult({ text: longText() }) } };
      const connection = await connectLowLevelServer(adapter, tools, { sessionId: "alice" });
      try {
        const result = await connection.client.callTool({ name: "big", arguments: {} });
        const id = (result.structuredContent as { responseMeta: { artifact: { id: string } } })
          .responseMeta.artifact.id;
        return await callQuery(connection, {
          artifactId: id,
          responsePath: "/text",
          textSearch: { query: "needle" },
        });
      } finally {
        await connection.close();
        await adapter.dispose();
      }
    };
    const short = await firstPageOf(50);
    const long = await firstPageOf(500);
    for (const page of [short, long]) expect(page.responseMeta.truncationReason).toBe("work_limit");
    expect(short.responseMeta.totalCount).toBeLessThan(long.responseMeta.totalCount);
  });
});
