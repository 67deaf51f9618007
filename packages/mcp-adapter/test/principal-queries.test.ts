import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { describe, expect, it } from "vitest";
import { createBoundedMcp } from "../src/server/create-bounded-mcp.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";

const caller = (clientId: string): { authInfo: AuthInfo } => ({
  authInfo: { token: `token-${clientId}`, clientId, scopes: [] },
});

/**
 * A memory store whose `head` waits until the test opens it, counting the heads under way per
 * artifact id: a query reads the head first, so this shows how many queries run at once.
 */
function createHeldStore() {
  const base = createMemoryStore();
  const inFlight = new Map<string, number>();
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const store: ArtifactStore = {
    ...base,
    async head(id) {
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      await opened;
      return base.head(id);
    },
  };
  return { store, inFlight, open: () => open() };
}

/** Lets every queued callback and promise run, several event-loop turns deep. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe("maxQueriesPerPrincipal", () => {
  it("runs one principal's excess queries in turn while another principal's query goes on", async () => {
    const held = createHeldStore();
    const payload = jsonTextResult(itemsPayloadOfSize(100_000));
    const writer = createBoundedMcp({ artifactStore: held.store, environment: {} });
    const idOf = async (clientId: string) =>
      (
        (await writer.boundResult(payload, caller(clientId))).structuredContent as {
          responseMeta: { artifact: { id: string } };
        }
      ).responseMeta.artifact.id;
    const [aliceId, bobId] = [await idOf("alice"), await idOf("bob")];
    // A second adapter over the same store: its parse cache is empty, so queries read the store.
    const reader = createBoundedMcp({
      artifactStore: held.store,
      environment: {},
      principals: "many",
      maxQueriesPerPrincipal: 1,
    });
    const describeOf = (artifactId: string, clientId: string) =>
      reader.callQueryTool({ artifactId, describe: true }, caller(clientId));
    const alice = [1, 2, 3].map(() => describeOf(aliceId, "alice"));
    const bob = describeOf(bobId, "bob");
    await settle();
    expect(Object.fromEntries(held.inFlight)).toEqual({ [aliceId]: 1, [bobId]: 1 });
    held.open();
    const answers = await Promise.all([...alice, bob]);
    expect(answers.map((answer) => answer.isError === true)).toEqual([false, false, false, false]);
  });

  it("drops a waiting query whose request was cancelled: it never reads the store", async () => {
    const held = createHeldStore();
    const payload = jsonTextResult(itemsPayloadOfSize(100_000));
    const writer = createBoundedMcp({ artifactStore: held.store, environment: {} });
    const id = (
      (await writer.boundResult(payload, caller("alice"))).structuredContent as {
        responseMeta: { artifact: { id: string } };
      }
    ).responseMeta.artifact.id;
    const reader = createBoundedMcp({
      artifactStore: held.store,
      environment: {},
      principals: "many",
      maxQueriesPerPrincipal: 1,
    });
    const cancelled = new AbortController();
    const first = reader.callQueryTool({ artifactId: id, describe: true }, caller("alice"));
    const waiting = reader.callQueryTool(
      { artifactId: id, describe: true },
      { ...caller("alice"), signal: cancelled.signal },
    );
    const last = reader.callQueryTool({ artifactId: id, describe: true }, caller("alice"));
    await settle();
    cancelled.abort(new Error("request cancelled"));
    await expect(waiting).rejects.toThrow("request cancelled");
    held.open();
    const answers = await Promise.all([first, last]);
    expect(answers.map((answer) => answer.isError === true)).toEqual([false, false]);
    // Two queries looked their artifact up (the first read the store, the last found the parse
    // cache); the cancelled one left the queue without running.
    const { queries, parseCacheHits, parseCacheMisses } = reader.stats().totals;
    expect({ queries, lookups: parseCacheHits + parseCacheMisses }).toEqual({
      queries: 2,
      lookups: 2,
    });
  });

  it("has no limit for one principal (stdio), the default", async () => {
    const held = createHeldStore();
    const payload = jsonTextResult(itemsPayloadOfSize(100_000));
    const writer = createBoundedMcp({ artifactStore: held.store, environment: {} });
    const id = (
      (await writer.boundResult(payload)).structuredContent as {
        responseMeta: { artifact: { id: string } };
      }
    ).responseMeta.artifact.id;
    const reader = createBoundedMcp({ artifactStore: held.store, environment: {} });
    const queries = [1, 2, 3].map(() => reader.callQueryTool({ artifactId: id, describe: true }));
    await settle();
    expect(held.inFlight.get(id)).toBe(3);
    held.open();
    await Promise.all(queries);
  });
});
