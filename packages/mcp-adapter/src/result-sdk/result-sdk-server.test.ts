import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createRecordingLogger } from "../testing/recording-logger.js";
import {
  getRawCallToolRequest,
  type ResultOverride,
  setRawCallToolResult,
} from "./call-context.js";
import { type CallResultHook, createCallInterceptor, withResultSdk } from "./call-interceptor.js";
import { connectClient } from "./test-support/connect-client.js";

const DERIVED: CallToolResult = {
  content: [{ type: "text", text: "derived text" }],
  structuredContent: { derived: true },
  _meta: { derivedMeta: 1 },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A real low-level Server whose tools/call handler is `handler` wrapped by the result SDK (or by
 * an interceptor with `onResult`), and a real Client connected to it.
 */
async function serve(
  handler: (request: CallToolRequest) => CallToolResult | Promise<CallToolResult>,
  onResult?: CallResultHook,
) {
  const server = new Server(
    { name: "low-level", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "tool", inputSchema: { type: "object" } }],
  }));
  const wrapped =
    onResult === undefined
      ? withResultSdk(handler)
      : createCallInterceptor({ onResult }).wrapHandler(handler);
  server.setRequestHandler(CallToolRequestSchema, wrapped);
  const connection = await connectClient(server);
  closers.push(connection.close);
  return connection.client;
}

const overriding = (...overrides: ResultOverride[]) =>
  serve(() => {
    for (const override of overrides) setRawCallToolResult(override);
    return DERIVED;
  });

describe("the result SDK with a low-level Server", () => {
  it("gives the handler the incoming tools/call request with its _meta", async () => {
    let seen: CallToolRequest | null = null;
    const client = await serve(() => {
      seen = getRawCallToolRequest();
      return DERIVED;
    });
    await client.callTool({
      name: "tool",
      arguments: { query: "notion" },
      _meta: { traceId: "t-42", progressToken: 7 },
    });
    expect(seen).toEqual({
      method: "tools/call",
      params: {
        name: "tool",
        arguments: { query: "notion" },
        _meta: { traceId: "t-42", progressToken: 7 },
      },
    });
  });

  it("returns null outside a tool handler and ignores an override there", () => {
    expect(getRawCallToolRequest()).toBeNull();
    expect(setRawCallToolResult({ content: [] })).toBe(false);
  });

  it("sends the derived result unchanged when nothing is overridden", async () => {
    const client = await overriding();
    expect(await client.callTool({ name: "tool" })).toEqual(DERIVED);
  });

  it("overrides content only, keeping the derived structuredContent and _meta", async () => {
    const client = await overriding({ content: [{ type: "text", text: "for the model" }] });
    expect(await client.callTool({ name: "tool" })).toEqual({
      content: [{ type: "text", text: "for the model" }],
      structuredContent: { derived: true },
      _meta: { derivedMeta: 1 },
    });
  });

  it("overrides structuredContent only", async () => {
    const client = await overriding({ structuredContent: { mine: 1 } });
    expect(await client.callTool({ name: "tool" })).toEqual({
      ...DERIVED,
      structuredContent: { mine: 1 },
    });
  });

  it("overrides _meta only", async () => {
    const client = await overriding({ _meta: { mine: "yes" } });
    expect(await client.callTool({ name: "tool" })).toEqual({ ...DERIVED, _meta: { mine: "yes" } });
  });

  it("overrides all three fields at once", async () => {
    const client = await overriding({
      content: [{ type: "text", text: "a" }],
      structuredContent: { b: 2 },
      _meta: { c: 3 },
    });
    expect(await client.callTool({ name: "tool" })).toEqual({
      content: [{ type: "text", text: "a" }],
      structuredContent: { b: 2 },
      _meta: { c: 3 },
    });
  });

  it("lets a second override replace the first entirely", async () => {
    const client = await overriding(
      { content: [{ type: "text", text: "first" }], _meta: { first: true } },
      { structuredContent: { second: true } },
    );
    expect(await client.callTool({ name: "tool" })).toEqual({
      ...DERIVED,
      structuredContent: { second: true },
    });
  });

  it("consumes the override once: the next call gets its derived result", async () => {
    let calls = 0;
    const client = await serve(() => {
      calls += 1;
      if (calls === 1) setRawCallToolResult({ content: [{ type: "text", text: "once" }] });
      return DERIVED;
    });
    expect((await client.callTool({ name: "tool" })).content).toEqual([
      { type: "text", text: "once" },
    ]);
    expect(await client.callTool({ name: "tool" })).toEqual(DERIVED);
  });

  it("never lets an override change isError, either way", async () => {
    const sneaky = { content: [{ type: "text", text: "fine" }], isError: false } as ResultOverride;
    const failing = await serve(() => {
      setRawCallToolResult(sneaky);
      return { ...DERIVED, isError: true };
    });
    expect(await failing.callTool({ name: "tool" })).toEqual({
      ...DERIVED,
      content: [{ type: "text", text: "fine" }],
      isError: true,
    });
    const succeeding = await serve(() => {
      setRawCallToolResult({ isError: true } as ResultOverride);
      return DERIVED;
    });
    expect(await succeeding.callTool({ name: "tool" })).toEqual(DERIVED);
  });

  it("ignores an override made after the result was produced", async () => {
    let late: Promise<boolean> | undefined;
    const client = await serve(() => {
      late = new Promise((resolve) =>
        setImmediate(() => resolve(setRawCallToolResult({ _meta: {} }))),
      );
      return DERIVED;
    });
    expect(await client.callTool({ name: "tool" })).toEqual(DERIVED);
    expect(await late).toBe(false);
  });

  it("ignores an override made after the handler failed", async () => {
    let late: Promise<boolean> | undefined;
    const client = await serve(() => {
      late = new Promise((resolve) =>
        setImmediate(() => resolve(setRawCallToolResult({ _meta: {} }))),
      );
      throw new McpError(ErrorCode.InvalidParams, "bad");
    });
    await expect(client.callTool({ name: "tool" })).rejects.toThrow("MCP error -32602: bad");
    expect(await late).toBe(false);
  });

  it("refuses fields of the wrong type at the call site", () => {
    expect(() => setRawCallToolResult({ content: "text" } as never)).toThrow(
      "setRawCallToolResult: content must be an array of content blocks",
    );
    expect(() => setRawCallToolResult({ structuredContent: [1] } as never)).toThrow(
      "setRawCallToolResult: structuredContent must be an object",
    );
    expect(() => setRawCallToolResult({ _meta: 3 } as never)).toThrow(
      "setRawCallToolResult: _meta must be an object",
    );
  });

  it("passes a JSON-RPC error through without running the hook", async () => {
    const hooked: string[] = [];
    const client = await serve(
      () => {
        setRawCallToolResult({ content: [] });
        throw new McpError(ErrorCode.InvalidParams, "no such thing");
      },
      (request, result) => {
        hooked.push(request.params.name);
        return result;
      },
    );
    await expect(client.callTool({ name: "tool" })).rejects.toThrow(
      "MCP error -32602: no such thing",
    );
    expect(hooked).toEqual([]);
  });

  it("runs the onResult hook on the overridden result and sends what it returns", async () => {
    const hooked: [CallToolRequest, CallToolResult][] = [];
    const client = await serve(
      () => {
        setRawCallToolResult({ content: [{ type: "text", text: "overridden" }] });
        return DERIVED;
      },
      (request, result) => {
        hooked.push([request, result]);
        return { ...result, _meta: { bounded: true } };
      },
    );
    expect(await client.callTool({ name: "tool", arguments: { a: 1 } })).toEqual({
      content: [{ type: "text", text: "overridden" }],
      structuredContent: { derived: true },
      _meta: { bounded: true },
    });
    expect(hooked).toEqual([
      [
        { method: "tools/call", params: { name: "tool", arguments: { a: 1 } } },
        { ...DERIVED, content: [{ type: "text", text: "overridden" }] },
      ],
    ]);
  });
});

describe("createCallInterceptor hook failures", () => {
  it("logs a throwing hook and answers with a JSON-RPC internal error through the transport decorator", async () => {
    const logger = createRecordingLogger();
    const interceptor = createCallInterceptor({
      logger,
      onResult: () => {
        throw new Error("store exploded");
      },
    });
    const server = new Server({ name: "s", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, () => DERIVED);
    const connection = await connectClient(server, (transport) =>
      interceptor.wrapTransport(transport),
    );
    closers.push(connection.close);
    await expect(connection.client.callTool({ name: "tool" })).rejects.toThrow(
      "MCP error -32603: bounded-mcp: store exploded",
    );
    expect(logger.records).toEqual([
      {
        level: "error",
        message: "bounded-mcp: the tools/call result hook failed",
        fields: { tool: "tool", error: "store exploded" },
      },
    ]);
  });
});
