import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueryErrorResultSchema } from "@bounded-mcp/contract";
import { createFsStore } from "@bounded-mcp/stores/fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { itemsPayload } from "../../test/support/fixtures.js";
import {
  type Connection,
  connectTwoCallers,
  createTestAdapter,
  TEST_NOW,
} from "../../test/support/harness.js";
import type { BoundedMcp } from "../server/create-bounded-mcp.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const payload = itemsPayload(300);

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function adapter(options: Parameters<typeof createTestAdapter>[0]): BoundedMcp {
  const bounded = createTestAdapter(options);
  cleanups.push(() => bounded.dispose());
  return bounded;
}

async function callers(bounded: BoundedMcp) {
  const pair = await connectTwoCallers(bounded, payload);
  cleanups.push(async () => {
    await pair.alice.close();
    await pair.bob.close();
  });
  return pair;
}

/** The reason of the INVALID_ARTIFACT_HANDLE answer to a describe query, or "answered". */
async function reasonOf(connection: Connection, artifactId: string): Promise<unknown> {
  const result = (await connection.client.callTool({
    name: "query_response_artifact",
    arguments: { artifactId, describe: true },
  })) as CallToolResult;
  if (result.isError !== true) return "answered";
  const { error } = QueryErrorResultSchema.parse(result.structuredContent).response;
  return error.code === "INVALID_ARTIFACT_HANDLE" ? error.details?.reason : error.code;
}

describe("an expired artifact through the real adapter", () => {
  it("answers expired on the first, second and third query (memory store, parse cache on)", async () => {
    let now = TEST_NOW;
    const bounded = adapter({ clock: () => now });
    const { alice, bob, id } = await callers(bounded);
    expect(await reasonOf(alice, id)).toBe("answered");
    now += DAY_MS;
    expect({
      first: await reasonOf(alice, id),
      second: await reasonOf(alice, id),
      third: await reasonOf(alice, id),
      anotherScope: await reasonOf(bob, id),
    }).toEqual({ first: "expired", second: "expired", third: "expired", anotherScope: "unknown" });
  });

  it("answers expired before and after the store swept it (fs store, a second adapter without a cache)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "adapter-expired-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    let now = TEST_NOW;
    const clock = () => now;
    const writer = adapter({
      clock,
      artifactStore: createFsStore({ dir, clock, sweepIntervalMs: 0 }),
    });
    const replicaStore = createFsStore({ dir, clock, sweepIntervalMs: 0 });
    const replica = adapter({ clock, artifactStore: replicaStore, parseCacheBytes: 0 });
    const { id } = await callers(writer);
    const { alice, bob } = await callers(replica);
    expect(await reasonOf(alice, id)).toBe("answered");
    now += DAY_MS;
    const before = [
      await reasonOf(alice, id),
      await reasonOf(alice, id),
      await reasonOf(alice, id),
    ];
    const swept = await replicaStore.sweep();
    const after = [await reasonOf(alice, id), await reasonOf(alice, id), await reasonOf(bob, id)];
    expect({ before, swept: swept.removed, after }).toEqual({
      before: ["expired", "expired", "expired"],
      swept: 1,
      after: ["expired", "expired", "unknown"],
    });
  });
});
