import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyMessage, hasFastDispatch, withFastDispatch } from "./fast-dispatch.js";

/** What the SDK Protocol's onmessage wrapper decides, in its order. */
function sdkKind(message: unknown): string {
  if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) return "response";
  if (isJSONRPCRequest(message)) return "request";
  if (isJSONRPCNotification(message)) return "notification";
  return "unknown";
}

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
  fc.constant(Object.fromEntries([["__proto__", { polluted: true }]])),
  fc.constant(Object.create(null) as object),
  fc.constant(new Map()),
);
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.double(),
  fc.constant(2 ** 60),
  fc.constant(-0),
  fc.constant(null),
  fc.constant(undefined),
);
const meta = fc.oneof(
  fc.record({ progressToken: id, other: anyValue }, { requiredKeys: [] }),
  fc.record({
    "io.modelcontextprotocol/related-task": fc.oneof(fc.record({ taskId: fc.string() }), anyValue),
  }),
  anyValue,
);
const paramsOrResult = fc.oneof(
  fc.record(
    {
      name: fc.string({ maxLength: 4 }),
      arguments: anyValue,
      _meta: meta,
      task: anyValue,
      content: fc.array(fc.record({ type: fc.constant("text"), text: fc.string() }), {
        maxLength: 2,
      }),
    },
    { requiredKeys: [] },
  ),
  anyValue,
);
const error = fc.oneof(
  fc.record(
    {
      code: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 2 })),
      message: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      data: anyValue,
      extra: anyValue,
    },
    { requiredKeys: [] },
  ),
  anyValue,
);
const message = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("1.0"), fc.constant(undefined)),
      id,
      method: fc.oneof(
        fc.constant("tools/call"),
        fc.constant("notifications/progress"),
        fc.integer(),
      ),
      params: paramsOrResult,
      result: paramsOrResult,
      error,
      extra: anyValue,
    },
    { requiredKeys: [] },
  ),
  anyValue,
);
const usual = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant("2.0"), id: fc.nat(), method: fc.string(), params: paramsOrResult },
    { requiredKeys: ["jsonrpc", "id", "method"] },
  ),
  fc.record(
    { jsonrpc: fc.constant("2.0"), method: fc.string(), params: paramsOrResult },
    { requiredKeys: ["jsonrpc", "method"] },
  ),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.nat(), result: paramsOrResult }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.nat(), error }),
);

describe("classifyMessage", () => {
  it("gives the SDK's kind whenever it gives one, for any message", () => {
    const decided = new Map<string, number>();
    fc.assert(
      fc.property(fc.oneof(message, usual), (value) => {
        const kind = classifyMessage(value);
        if (kind !== undefined) expect(kind).toBe(sdkKind(value));
        decided.set(String(kind), (decided.get(String(kind)) ?? 0) + 1);
      }),
      { numRuns: 3000 },
    );
    // Both branches are exercised: every kind decided here, and many left to the SDK.
    for (const kind of ["request", "notification", "response", "undefined"]) {
      expect(decided.get(kind) ?? 0).toBeGreaterThan(50);
    }
  });

  it("decides the usual shapes itself, and leaves unusual ones to the SDK", () => {
    expect(
      classifyMessage({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "a", arguments: { x: 1 }, _meta: { progressToken: "t" } },
      }),
    ).toBe("request");
    expect(
      classifyMessage({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 1 },
      }),
    ).toBe("notification");
    expect(classifyMessage({ jsonrpc: "2.0", id: "x", result: { content: [] } })).toBe("response");
    expect(classifyMessage({ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "no" } })).toBe(
      "response",
    );
    // Unusual: each goes through the SDK's own checks.
    const relatedTask = { "io.modelcontextprotocol/related-task": { taskId: "t" } };
    expect(
      classifyMessage({ jsonrpc: "2.0", id: 1, method: "m", params: { _meta: relatedTask } }),
    ).toBeUndefined();
    expect(classifyMessage({ jsonrpc: "2.0", id: 1.5, method: "m" })).toBeUndefined();
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "m", extra: 1 })).toBeUndefined();
    expect(classifyMessage({ jsonrpc: "2.0", id: 1, result: [] })).toBeUndefined();
    expect(
      classifyMessage(JSON.parse('{"jsonrpc":"2.0","id":1,"result":{"__proto__":{}}}')),
    ).toBeUndefined();
    expect(
      classifyMessage({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "m", more: 1 } }),
    ).toBeUndefined();
  });
});

describe("withFastDispatch", () => {
  it("takes over the dispatch of a real SDK Client and Server, which still answer every request", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: "text", text: String(request.params.name) }],
    }));
    const client = new Client({ name: "c", version: "1" });
    await server.connect(withFastDispatch(serverSide, server));
    await client.connect(withFastDispatch(clientSide, client));
    // The accessor is installed only when the SDK still has the handlers it calls.
    expect(Object.getOwnPropertyDescriptor(serverSide, "onmessage")?.get).toBeTypeOf("function");
    expect(Object.getOwnPropertyDescriptor(clientSide, "onmessage")?.get).toBeTypeOf("function");
    expect(await client.callTool({ name: "usual" })).toEqual({
      content: [{ type: "text", text: "usual" }],
    });
    // A related-task id is not a usual shape: the SDK's own wrapper dispatches it.
    const relatedTask = { "io.modelcontextprotocol/related-task": { taskId: "t" } };
    const unusual = await client.request(
      { method: "tools/call", params: { name: "unusual", _meta: relatedTask } },
      CallToolResultSchema,
    );
    expect(unusual).toEqual({ content: [{ type: "text", text: "unusual" }] });
    await expect(client.listTools()).resolves.toEqual({ tools: [] });
    // A result settled here leaves the Protocol's bookkeeping as _onresponse would: no handler,
    // timeout or progress handler left behind (with onprogress, as the relay sends every call).
    const progressed = await client.callTool({ name: "progress" }, undefined, {
      onprogress: () => {},
    });
    expect(progressed).toEqual({ content: [{ type: "text", text: "progress" }] });
    const books = client as unknown as Record<string, Map<unknown, unknown>>;
    expect([
      books._responseHandlers?.size,
      books._timeoutInfo?.size,
      books._progressHandlers?.size,
    ]).toEqual([0, 0, 0]);
    await client.close();
  });

  it("shows an intercept every message first and keeps the ones it takes from the Protocol", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: "text", text: String(request.params.name) }],
    }));
    const seen: string[] = [];
    const intercept = (message: { method?: string }) => {
      seen.push(message.method ?? "response");
      return message.method === "tools/call" && JSON.stringify(message).includes('"taken"');
    };
    await server.connect(withFastDispatch(serverSide, server, intercept as never));
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    expect(hasFastDispatch(serverSide)).toBe(true);
    expect(await client.callTool({ name: "passed" })).toEqual({
      content: [{ type: "text", text: "passed" }],
    });
    // Taken: the Server never answers it, so the call waits until it is given up on.
    const aborting = new AbortController();
    const taken = client.callTool({ name: "taken" }, undefined, { signal: aborting.signal });
    await new Promise((resolve) => setImmediate(resolve));
    aborting.abort("taken by the intercept");
    await expect(taken).rejects.toThrow();
    expect(seen).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/call",
      "tools/call",
      "notifications/cancelled",
    ]);
    await client.close();
  });

  it("leaves a transport whose onmessage is an accessor (a wrapper) to the SDK", () => {
    const [inner] = InMemoryTransport.createLinkedPair();
    class Wrapper {
      start = () => inner.start();
      send = inner.send.bind(inner);
      close = () => inner.close();
      get onmessage() {
        return inner.onmessage;
      }
      set onmessage(handler) {
        inner.onmessage = handler;
      }
    }
    const wrapper = new Wrapper();
    const server = new Server({ name: "s", version: "1" }, { capabilities: {} });
    expect(withFastDispatch(wrapper, server)).toBe(wrapper);
    expect(Object.getOwnPropertyDescriptor(wrapper, "onmessage")).toBeUndefined();
  });

  it("leaves a transport that already has an onmessage to the SDK", () => {
    const [side] = InMemoryTransport.createLinkedPair();
    const before = () => {};
    side.onmessage = before;
    const server = new Server({ name: "s", version: "1" }, { capabilities: {} });
    expect(withFastDispatch(side, server).onmessage).toBe(before);
    expect(Object.getOwnPropertyDescriptor(side, "onmessage")?.get).toBeUndefined();
  });
});
