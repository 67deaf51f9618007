import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../logging/recording-logger.js";
import { connectRelay, type RelayConnection } from "./connect-relay.js";
import { createLinearStdioClientTransport } from "./linear-stdio-client-transport.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import { createUpstreamSupervisor, type UpstreamSupervisor } from "./upstream-supervisor.js";

const connections: RelayConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

async function startSupervisedRelay() {
  const logger = createRecordingLogger();
  let supervisor: UpstreamSupervisor | undefined;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await connectRelay(serverSide, {
    logger,
    whenUpstreamReady: () => supervisor?.whenConnected() ?? Promise.resolve(),
    connectUpstream: async ({ clientInfo, capabilities }) => {
      supervisor = createUpstreamSupervisor({
        name: "fixture",
        client: new Client(clientInfo, { capabilities }),
        createTransport: () =>
          createLinearStdioClientTransport({
            command: process.execPath,
            args: [FIXTURE_SERVER_PATH],
            name: "fixture",
            logger,
          }),
        backoff: { initialDelayMs: 5 },
        random: () => 0,
        logger,
      });
      await supervisor.start();
      return supervisor.client;
    },
  });
  connections.push(connection);
  const downstream = new Client({ name: "downstream-test", version: "1.0.0" });
  await downstream.connect(clientSide);
  await connection.ready;
  return { downstream, logger };
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
