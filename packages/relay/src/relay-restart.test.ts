import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import { type StartedRelay, startRelay } from "./test-support/start-relay.js";

const relays: StartedRelay[] = [];

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

/** The fixture as a supervised stdio child of createBoundedRelay, restarted at once. */
async function startSupervisedRelay() {
  const relay = await startRelay({
    upstream: {
      kind: "stdio",
      command: process.execPath,
      args: [FIXTURE_SERVER_PATH],
      name: "fixture",
    },
    restart: { backoff: { initialDelayMs: 5 }, random: () => 0 },
  });
  relays.push(relay);
  return { downstream: relay.downstream, logger: relay.logger };
}

async function pidOf(client: Client): Promise<string> {
  const result = (await client.callTool({ name: "pid", arguments: {} })) as {
    content: { text: string }[];
  };
  return result.content[0]!.text;
}

describe("a relay over a supervised stdio upstream", () => {
  it("fails the call in flight at a crash with the upstream's exit, then keeps serving", async () => {
    const { downstream, logger } = await startSupervisedRelay();
    const firstPid = await pidOf(downstream);
    const failure = await downstream.callTool({ name: "crash", arguments: { code: 9 } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: -32000,
      message:
        'MCP error -32000: upstream "fixture" exited with code 9 while tools/call was in flight',
      data: { upstream: "fixture", exitCode: 9, signal: null },
    });
    const secondPid = await pidOf(downstream);
    expect(secondPid).not.toBe(firstPid);
    expect(await downstream.callTool({ name: "echo", arguments: { text: "still here" } })).toEqual({
      content: [{ type: "text", text: "still here" }],
    });
    expect(logger.records.map((record) => record.message)).toEqual([
      'upstream "fixture" exited with code 9',
      'upstream "fixture" closed unexpectedly; restarting',
      'upstream "fixture" restarted',
    ]);
  });
});
