import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createLinearStdioClientTransport } from "./linear-stdio-client-transport.js";
import { FIXTURE_SERVER_PATH } from "./test-support/fixture-paths.js";
import { createUpstreamSupervisor, type UpstreamSupervisor } from "./upstream-supervisor.js";

const supervisors: UpstreamSupervisor[] = [];

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.close()));
});

function fixtureTransport() {
  return createLinearStdioClientTransport({
    command: process.execPath,
    args: [FIXTURE_SERVER_PATH],
    name: "fixture",
  });
}

async function pidOf(client: Client): Promise<string> {
  const result = (await client.callTool({ name: "pid", arguments: {} })) as {
    content: { text: string }[];
  };
  return result.content[0]!.text;
}

describe("createUpstreamSupervisor", () => {
  it("fails the in-flight call clearly, restarts the child and serves calls again", async () => {
    const logger = createRecordingLogger();
    const reconnected: Client[] = [];
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    const supervisor = createUpstreamSupervisor({
      name: "fixture",
      client,
      createTransport: fixtureTransport,
      onReconnect: (reconnectedClient) => {
        reconnected.push(reconnectedClient);
      },
      backoff: { initialDelayMs: 5 },
      random: () => 0,
      logger,
    });
    supervisors.push(supervisor);
    await supervisor.start();
    const firstPid = await pidOf(client);

    const failure = await client.callTool({ name: "crash", arguments: { code: 7 } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).message).toBe(
      'MCP error -32000: upstream "fixture" exited with code 7 while tools/call was in flight',
    );

    await supervisor.whenConnected();
    expect(supervisor.state).toBe("connected");
    expect(supervisor.restarts).toBe(1);
    expect(reconnected).toEqual([client]);
    const secondPid = await pidOf(client);
    expect(secondPid).not.toBe(firstPid);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message: 'upstream "fixture" closed unexpectedly; restarting',
        fields: { upstream: "fixture" },
      },
      {
        level: "info",
        message: 'upstream "fixture" restarted',
        fields: { upstream: "fixture", restarts: 1 },
      },
    ]);
  });

  it("gives up after the configured failed restarts and rejects waiting callers", async () => {
    const logger = createRecordingLogger();
    let created = 0;
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    const supervisor = createUpstreamSupervisor({
      name: "fixture",
      client,
      createTransport: () => {
        created += 1;
        return created === 1
          ? fixtureTransport()
          : createLinearStdioClientTransport({ command: "/nonexistent/mcp-server" });
      },
      backoff: { initialDelayMs: 5 },
      maxAttempts: 2,
      random: () => 0,
      logger,
    });
    supervisors.push(supervisor);
    await supervisor.start();
    await client.callTool({ name: "crash", arguments: { code: 1 } }).catch(() => undefined);

    await expect(supervisor.whenConnected()).rejects.toThrow(
      'upstream "fixture" could not be restarted',
    );
    expect(supervisor.state).toBe("failed");
    expect(created).toBe(3);
    expect(logger.records.map((record) => [record.level, record.message])).toEqual([
      ["warn", 'upstream "fixture" closed unexpectedly; restarting'],
      ["warn", 'upstream "fixture" failed to restart (attempt 1)'],
      ["warn", 'upstream "fixture" failed to restart (attempt 2)'],
      ["error", 'upstream "fixture" gave up after 2 restart attempts'],
    ]);
  });

  it("does not restart after close", async () => {
    let created = 0;
    const client = new Client({ name: "relay-test", version: "1.0.0" });
    const supervisor = createUpstreamSupervisor({
      name: "fixture",
      client,
      createTransport: () => {
        created += 1;
        return fixtureTransport();
      },
      backoff: { initialDelayMs: 5 },
    });
    await supervisor.start();
    await supervisor.close();
    expect(supervisor.state).toBe("closed");
    await expect(supervisor.whenConnected()).rejects.toThrow('upstream "fixture" is closed');
    expect(created).toBe(1);
  });
});

describe("the first start's failure", () => {
  it("carries the upstream's last stderr lines, at most 1 KiB", async () => {
    const noisy = `${"x".repeat(900)}\nfirst reason\n${"y".repeat(200)}\nNone of the specified directories are accessible`;
    const supervisor = createUpstreamSupervisor({
      name: "failing",
      client: new Client({ name: "relay-test", version: "1.0.0" }),
      createTransport: () =>
        createLinearStdioClientTransport({
          command: process.execPath,
          args: ["-e", `process.stderr.write(${JSON.stringify(noisy)} + "\\n"); process.exit(1);`],
          name: "failing",
        }),
    });
    supervisors.push(supervisor);
    const error = (await supervisor.start().catch((caught: unknown) => caught)) as Error;
    const [head, tail] = error.message.split("; its last stderr lines:\n");
    expect(head).toBe(
      'MCP error -32000: upstream "failing" exited with code 1 while initialize was in flight',
    );
    expect(tail).toBe(
      `first reason\n${"y".repeat(200)}\nNone of the specified directories are accessible`,
    );
    expect(Buffer.byteLength(tail ?? "")).toBeLessThanOrEqual(1024);
    expect(supervisor.state).toBe("failed");
  });

  it("says a command that does not exist was not found", async () => {
    const supervisor = createUpstreamSupervisor({
      name: "missing",
      client: new Client({ name: "relay-test", version: "1.0.0" }),
      createTransport: () =>
        createLinearStdioClientTransport({
          command: "no-such-mcp-server-command",
          name: "missing",
        }),
    });
    supervisors.push(supervisor);
    await expect(supervisor.start()).rejects.toThrow(
      'upstream command "no-such-mcp-server-command" was not found: is it installed and on PATH?',
    );
  });
});
