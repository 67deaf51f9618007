import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  type Notification,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type BoundedRelayOptions, createBoundedRelay } from "./create-bounded-relay.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Waits for a condition driven by the child; generous because the machine may be loaded. */
function eventually<T>(assertion: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(assertion, { timeout: 15_000, interval: 20 });
}

async function startFixtureRelay(options: Partial<BoundedRelayOptions> = {}) {
  const bounded: BoundedMcp = createBoundedMcp({ environment: {} });
  const logger = createRecordingLogger();
  const relay = createBoundedRelay({
    bounded,
    upstream: { kind: "stdio", command: process.execPath, args: [FIXTURE_SERVER_PATH] },
    restart: { backoff: { initialDelayMs: 5 }, random: () => 0 },
    logger,
    ...options,
  });
  cleanups.push(
    () => bounded.dispose(),
    () => relay.close(),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(serverSide);
  const downstream = new Client({ name: "sync-test", version: "1.0.0" });
  await downstream.connect(clientSide);
  await session.ready;
  return { downstream, session, logger };
}

async function textOf(call: Promise<unknown>): Promise<string> {
  const result = (await call) as CallToolResult;
  return (result.content[0] as { text: string }).text;
}

describe("a bounded relay session over a restartable child", () => {
  it("fails the initialize clearly when the upstream has a tool named like the query tool", async () => {
    const bounded = createBoundedMcp({ environment: {} });
    const relay = createBoundedRelay({
      bounded,
      upstream: {
        kind: "stdio",
        command: process.execPath,
        args: [FIXTURE_SERVER_PATH, "--clash"],
        name: "fixture",
      },
    });
    cleanups.push(
      () => bounded.dispose(),
      () => relay.close(),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const session = await relay.connect(serverSide);
    const downstream = new Client({ name: "clash-test", version: "1.0.0" });
    const message =
      'upstream "fixture" has a tool named "query_response_artifact", the name of the relay\'s own query tool; rename or disable it upstream';
    await expect(downstream.connect(clientSide)).rejects.toThrow(
      `MCP error -32603: the upstream could not be connected: ${message}`,
    );
    await expect(session.ready).rejects.toThrow(message);
    await session.closed;
    expect(session.supervisor?.state).toBe("closed");
    expect(relay.sessionCount).toBe(0);
  });

  it("re-sends the log level and the subscriptions to a restarted upstream", async () => {
    const { downstream, session } = await startFixtureRelay();
    await downstream.setLoggingLevel("warning");
    await downstream.subscribeResource({ uri: "fixture://seed" });
    await downstream.subscribeResource({ uri: "fixture://other" });
    await downstream.unsubscribeResource({ uri: "fixture://other" });
    const before = await textOf(downstream.callTool({ name: "remembered", arguments: {} }));
    expect(JSON.parse(before)).toEqual({ logLevel: "warning", subscriptions: ["fixture://seed"] });
    const firstPid = await textOf(downstream.callTool({ name: "pid", arguments: {} }));
    await expect(downstream.callTool({ name: "crash", arguments: { code: 1 } })).rejects.toThrow(
      'upstream "node" exited with code 1 while tools/call was in flight',
    );
    // The next call waits for the restart and its re-sync, so the new child already knows both.
    expect(
      JSON.parse(await textOf(downstream.callTool({ name: "remembered", arguments: {} }))),
    ).toEqual({ logLevel: "warning", subscriptions: ["fixture://seed"] });
    expect(session.supervisor?.restarts).toBe(1);
    expect(await textOf(downstream.callTool({ name: "pid", arguments: {} }))).not.toBe(firstPid);
  });

  it("relays tools, resources and prompts list_changed, and lists what changed", async () => {
    const { downstream } = await startFixtureRelay();
    const changed: Notification[] = [];
    for (const schema of [
      ToolListChangedNotificationSchema,
      ResourceListChangedNotificationSchema,
      PromptListChangedNotificationSchema,
    ]) {
      downstream.setNotificationHandler(schema, (notification) => {
        changed.push(notification);
      });
    }
    await downstream.callTool({ name: "grow", arguments: { name: "sprout" } });
    await eventually(() =>
      expect(new Set(changed.map((notification) => notification.method))).toEqual(
        new Set([
          "notifications/tools/list_changed",
          "notifications/resources/list_changed",
          "notifications/prompts/list_changed",
        ]),
      ),
    );
    expect((await downstream.listTools()).tools.map((tool) => tool.name)).toContain("sprout");
    expect((await downstream.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "fixture://seed",
      "fixture://sprout",
    ]);
    expect((await downstream.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "seed",
      "sprout",
    ]);
    expect(await downstream.callTool({ name: "sprout", arguments: {} })).toEqual({
      content: [{ type: "text", text: "sprout" }],
    });
  });

  it("keeps a call alive past the silence timeout while the upstream reports progress nobody asked for", async () => {
    // 20 steps of 250 ms: 5 s in all, against 4 s of allowed silence (16 times a step, so a
    // loaded machine does not miss a step's deadline). The relay asks the upstream
    // for progress with its own token, so each step restarts the clock; the caller asked for
    // none, so it receives none.
    const { downstream } = await startFixtureRelay({
      requestOptions: { timeout: 4_000, resetTimeoutOnProgress: true, maxTotalTimeout: 60_000 },
    });
    const progress: Notification[] = [];
    downstream.fallbackNotificationHandler = async (notification) => {
      progress.push(notification);
    };
    expect(
      await textOf(downstream.callTool({ name: "slow", arguments: { steps: 20, stepMs: 250 } })),
    ).toBe("done after 20 steps; asked for progress: true");
    expect(progress).toEqual([]);
  });
});
