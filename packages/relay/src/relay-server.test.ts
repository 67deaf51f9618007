import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  isInitializeRequest,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Notification,
  ResourceUpdatedNotificationSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ToolHookContext, ToolHooks } from "./relay-hooks.js";
import { SERVER_EVERYTHING_PATH } from "./test-support/fixture-paths.js";
import {
  recordedStdioUpstream,
  type StartedRelay,
  startRelay,
} from "./test-support/start-relay.js";

const PASS_THROUGH = z.looseObject({});

type EverythingRelay = StartedRelay;
const relays: EverythingRelay[] = [];

/** Retries an assertion until it passes; generous because the child runs on a loaded machine. */
function eventually<T>(assertion: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(assertion, { timeout: 15_000, interval: 20 });
}

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

function createDownstream(): Client {
  const client = new Client(
    { name: "downstream-test", version: "3.1.4" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    model: "test-model",
    role: "assistant",
    content: { type: "text", text: `sampled: ${request.params.maxTokens}` },
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: "accept",
    content: { name: "Ada Lovelace" },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: "file:///work/relay-root", name: "relay root" }],
  }));
  return client;
}

/** server-everything as a stdio child behind createBoundedRelay, as the apps run it. */
async function start(options: { hooks?: ToolHooks } = {}) {
  const sentUpstream: JSONRPCMessage[] = [];
  const relay = await startRelay({
    upstream: recordedStdioUpstream("everything", [SERVER_EVERYTHING_PATH, "stdio"], sentUpstream),
    downstream: createDownstream(),
    sentUpstream,
    ...options,
  });
  relays.push(relay);
  return relay;
}

function upstreamRequest(relay: EverythingRelay, method: string, params?: Record<string, unknown>) {
  return relay.upstream.request(
    (params === undefined ? { method } : { method, params }) as Parameters<Client["request"]>[0],
    PASS_THROUGH,
  );
}

/**
 * The last request or notification the relay sent upstream. Responses are skipped: 350 ms after
 * initialize server-everything asks for roots/list, and the relay's answer may be sent at any
 * point of a test (comparing the very last message made these tests depend on timing).
 */
function lastSentRequestOrNotification(relay: EverythingRelay) {
  return relay.sentUpstream.filter((message) => "method" in message).at(-1);
}

function downstreamRequest(
  relay: EverythingRelay,
  method: string,
  params?: Record<string, unknown>,
) {
  return relay.downstream.request(
    (params === undefined ? { method } : { method, params }) as Parameters<Client["request"]>[0],
    PASS_THROUGH,
  );
}

describe("createBoundedRelay over server-everything (stdio child), faithful", () => {
  it("connects the upstream as the downstream client and mirrors its server", async () => {
    const relay = await start();
    const initialize = relay.sentUpstream.filter((message) => isInitializeRequest(message))[0];
    expect(initialize?.params.clientInfo).toEqual({ name: "downstream-test", version: "3.1.4" });
    expect(initialize?.params.capabilities).toEqual({
      sampling: {},
      elicitation: { form: {} },
      roots: { listChanged: true },
    });
    expect(relay.downstream.getServerVersion()).toEqual(relay.upstream.getServerVersion());
    expect(relay.downstream.getInstructions()).toBe(relay.upstream.getInstructions());
    const { tasks: _tasks, ...withoutTasks } = relay.upstream.getServerCapabilities() ?? {};
    expect(withoutTasks.tools).toBeDefined();
    expect(withoutTasks.resources).toBeDefined();
    expect(relay.downstream.getServerCapabilities()).toEqual(withoutTasks);
  });

  it("lists the upstream tools (outputSchemas rewritten, nothing else changed) plus the query tool, once", async () => {
    const relay = await start();
    const direct = (await upstreamRequest(relay, "tools/list")) as { tools: Tool[] };
    const relayed = (await downstreamRequest(relay, "tools/list")) as { tools: Tool[] };
    expect(relayed.tools.map((tool) => tool.name)).toEqual([
      ...direct.tools.map((tool) => tool.name),
      QUERY_TOOL_NAME,
    ]);
    expect(relayed.tools.at(-1)).toEqual(relay.bounded.queryTool);
    for (const [index, tool] of direct.tools.entries()) {
      const { outputSchema, ...rest } = relayed.tools[index]!;
      const { outputSchema: original, ...directRest } = tool;
      expect(rest).toEqual(directRest);
      // A rewritten schema admits the original, and (one compact branch) both bounded shapes.
      if (original !== undefined) expect(outputSchema?.anyOf).toHaveLength(2);
      else expect(outputSchema).toBeUndefined();
    }
    expect(direct.tools.map((tool) => tool.name)).toContain("trigger-sampling-request");
    expect(direct.tools.some((tool) => tool.outputSchema !== undefined)).toBe(true);
  });

  it("runs the tool's hook with the request as received and the upstream result", async () => {
    const seen: Omit<ToolHookContext, "extra">[] = [];
    const relay = await start({
      hooks: {
        echo: ({ toolName, request, result }) => {
          seen.push({ toolName, request, result });
        },
      },
    });
    const result = await relay.downstream.callTool({
      name: "echo",
      arguments: { message: "hi" },
      _meta: { traceId: "t-1" },
    });
    expect(result).toEqual({ content: [{ type: "text", text: "Echo: hi" }] });
    expect(seen).toEqual([
      {
        toolName: "echo",
        request: {
          method: "tools/call",
          params: { name: "echo", arguments: { message: "hi" }, _meta: { traceId: "t-1" } },
        },
        result: { content: [{ type: "text", text: "Echo: hi" }] },
      },
    ]);
  });

  it("answers the query tool itself, never upstream", async () => {
    const relay = await start();
    const result = (await relay.downstream.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId: "a".repeat(26) },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      response: { error: { code: "INVALID_ARTIFACT_HANDLE" } },
    });
    expect(
      relay.sentUpstream.some((message) => "method" in message && message.method === "tools/call"),
    ).toBe(false);
  });

  it("relays resources, templates (plus the descriptor template), a resource read, prompts, a prompt and a completion as sent", async () => {
    const relay = await start();
    const { resources } = (await upstreamRequest(relay, "resources/list")) as {
      resources: { uri: string }[];
    };
    const staticUri = resources.find((resource) => resource.uri.includes("static"))?.uri;
    expect(staticUri).toBeDefined();
    const cases: [string, Record<string, unknown> | undefined][] = [
      ["resources/list", undefined],
      ["resources/templates/list", undefined],
      ["resources/read", { uri: staticUri }],
      ["prompts/list", undefined],
      ["prompts/get", { name: "simple-prompt" }],
      [
        "completion/complete",
        {
          ref: { type: "ref/prompt", name: "completable-prompt" },
          argument: { name: "department", value: "E" },
        },
      ],
    ];
    for (const [method, params] of cases) {
      const direct = (await upstreamRequest(relay, method, params)) as {
        resourceTemplates?: unknown[];
      };
      // The adapter's descriptor template is added to the first templates page, nothing else.
      const expected =
        method === "resources/templates/list"
          ? {
              ...direct,
              resourceTemplates: [
                ...(direct.resourceTemplates ?? []),
                relay.bounded.descriptorTemplate,
              ],
            }
          : direct;
      expect(await downstreamRequest(relay, method, params)).toEqual(expected);
    }
    expect(
      await relay.downstream.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "E" },
      }),
    ).toEqual({ completion: { values: ["Engineering"], total: 1, hasMore: false } });
  });

  it("relays progress with the caller's own token", async () => {
    const relay = await start();
    const progress: unknown[] = [];
    const result = await relay.downstream.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
      CallToolResultSchema,
      { onprogress: (update) => progress.push(update) },
    );
    expect(progress).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: "Long running operation completed. Duration: 0.2 seconds, Steps: 2.",
        },
      ],
    });
  });

  it("forwards a cancellation to the upstream", async () => {
    const relay = await start();
    const controller = new AbortController();
    const call = relay.downstream.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } },
      CallToolResultSchema,
      { signal: controller.signal },
    );
    await eventually(() =>
      expect(
        relay.sentUpstream.some(
          (message) => "method" in message && message.method === "tools/call",
        ),
      ).toBe(true),
    );
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    const upstreamCall = relay.sentUpstream.find(
      (message) => "method" in message && message.method === "tools/call",
    ) as { id: number };
    await eventually(() =>
      expect(lastSentRequestOrNotification(relay)).toEqual({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: upstreamCall.id, reason: "changed my mind" },
      }),
    );
  });

  it("relays a sampling request from the upstream to the downstream client", async () => {
    const relay = await start();
    const result = (await relay.downstream.callTool({
      name: "trigger-sampling-request",
      arguments: { prompt: "hello", maxTokens: 7 },
    })) as CallToolResult;
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: `LLM sampling result: \n${JSON.stringify(
            {
              model: "test-model",
              role: "assistant",
              content: { type: "text", text: "sampled: 7" },
            },
            null,
            2,
          )}`,
        },
      ],
    });
  });

  it("relays an elicitation from the upstream to the downstream client", async () => {
    const relay = await start();
    const result = (await relay.downstream.callTool({
      name: "trigger-elicitation-request",
      arguments: {},
    })) as CallToolResult;
    expect(result).toEqual({
      content: [
        { type: "text", text: "✅ User provided the requested information!" },
        { type: "text", text: "User inputs:\n- Name: Ada Lovelace" },
        {
          type: "text",
          text: `\nRaw result: ${JSON.stringify({ action: "accept", content: { name: "Ada Lovelace" } }, null, 2)}`,
        },
      ],
    });
  });

  it("answers the upstream's roots/list with the downstream client's roots", async () => {
    const relay = await start();
    await eventually(async () => {
      const result = (await relay.downstream.callTool({
        name: "get-roots-list",
        arguments: {},
      })) as CallToolResult;
      expect(result.content[0]).toEqual({
        type: "text",
        text: expect.stringContaining("1. relay root\n   URI: file:///work/relay-root"),
      });
    });
  });

  it("forwards logging/setLevel and relays log messages and resource updates", async () => {
    const relay = await start();
    const logs: Notification[] = [];
    const updates: Notification[] = [];
    relay.downstream.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification);
    });
    relay.downstream.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification);
    });
    expect(await relay.downstream.setLoggingLevel("debug")).toEqual({});
    expect(lastSentRequestOrNotification(relay)).toMatchObject({
      method: "logging/setLevel",
      params: { level: "debug" },
    });
    const uri = "demo://resource/static/document/architecture.md";
    expect(await relay.downstream.subscribeResource({ uri })).toEqual({});
    await relay.downstream.callTool({ name: "toggle-subscriber-updates", arguments: {} });
    await eventually(() => expect(updates.length).toBeGreaterThan(0));
    expect(updates[0]).toEqual({ method: "notifications/resources/updated", params: { uri } });
    await eventually(() =>
      expect(logs).toContainEqual({
        method: "notifications/message",
        params: expect.objectContaining({
          data: expect.stringContaining(`Received Subscribe Resource request for URI: ${uri}`),
        }),
      }),
    );
  });

  it("relays the downstream's roots/list_changed to the upstream", async () => {
    const relay = await start();
    await relay.downstream.sendRootsListChanged();
    await eventually(() =>
      expect(relay.sentUpstream).toContainEqual({
        jsonrpc: "2.0",
        method: "notifications/roots/list_changed",
      }),
    );
  });

  it("relays ping to the upstream", async () => {
    const relay = await start();
    expect(await relay.downstream.ping()).toEqual({});
    expect(lastSentRequestOrNotification(relay)).toMatchObject({ method: "ping" });
  });
});
