import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import {
  type BoundedMcp,
  createBoundedMcp,
  getRawCallToolRequest,
  setRawCallToolResult,
} from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolRequest, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import type { ToolHooks } from "./relay-hooks.js";
import { SERVER_FILESYSTEM_PATH } from "./test-support/fixture-paths.js";
import { createPayloadText } from "./test-support/payload.mjs";

let directory: string;
let mcp: BoundedMcp;
const relays: BoundedRelay[] = [];
const SMALL_TEXT = createPayloadText(0.001);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "bounded-relay-"));
  await writeFile(join(directory, "small.json"), SMALL_TEXT);
  await writeFile(join(directory, "one-mib.json"), createPayloadText(1));
  mcp = createBoundedMcp({ environment: {} });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

afterAll(async () => {
  await mcp.dispose();
  await rm(directory, { recursive: true, force: true });
});

async function startRelay(hooks?: ToolHooks) {
  const logger = createRecordingLogger();
  const relay = createBoundedRelay({
    bounded: mcp,
    upstream: {
      kind: "stdio",
      command: process.execPath,
      args: [SERVER_FILESYSTEM_PATH, directory],
      name: "filesystem",
    },
    ...(hooks === undefined ? {} : { hooks }),
    logger,
  });
  relays.push(relay);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(serverSide);
  const downstream = new Client({ name: "bounded-relay-test", version: "1.0.0" });
  await downstream.connect(clientSide);
  await session.ready;
  return { relay, session, downstream, logger };
}

function readFile(downstream: Client, name: string, meta?: Record<string, unknown>) {
  return downstream.callTool({
    name: "read_text_file",
    arguments: { path: join(directory, name) },
    ...(meta === undefined ? {} : { _meta: meta }),
  }) as Promise<CallToolResult>;
}

describe("createBoundedRelay over server-filesystem", () => {
  it("lists the upstream tools plus the query tool once, and the descriptor template", async () => {
    const { downstream } = await startRelay();
    const { tools } = await downstream.listTools();
    expect(tools.filter((tool) => tool.name === QUERY_TOOL_NAME)).toEqual([mcp.queryTool]);
    expect(tools.map((tool) => tool.name)).toContain("read_text_file");
    const readTool = tools.find((tool) => tool.name === "read_text_file");
    // The rewritten schema admits the original, and (one compact branch) both bounded shapes.
    expect(readTool?.outputSchema?.anyOf).toHaveLength(2);
    expect(await downstream.listResourceTemplates()).toEqual({
      resourceTemplates: [mcp.descriptorTemplate],
    });
  });

  it("passes a small file through unchanged and bounds a 1 MiB one, answerable by textSearch", async () => {
    const { downstream, relay } = await startRelay();
    expect(await readFile(downstream, "small.json")).toEqual({
      content: [{ type: "text", text: SMALL_TEXT }],
      structuredContent: { content: SMALL_TEXT },
    });
    const bounded = await readFile(downstream, "one-mib.json");
    const envelope = BoundedEnvelopeSchema.parse(bounded.structuredContent);
    expect(bounded.content).toEqual([
      { type: "text", text: JSON.stringify(envelope) },
      expect.objectContaining({ type: "resource_link" }),
    ]);
    // server-filesystem's structuredContent {content: "<file text>"} only mirrors the text block,
    // so the adapter stores the text parsed: the file is queryable as JSON (filters, textSearch).
    const artifactId = envelope.responseMeta.artifact.id;
    const filtered = (await downstream.callTool({
      name: QUERY_TOOL_NAME,
      arguments: {
        artifactId,
        responsePath: "/items",
        filters: [{ path: "/name", op: "eq", value: "item-777" }],
        fields: ["/id", "/name"],
      },
    })) as CallToolResult;
    expect(filtered.isError).toBeUndefined();
    expect(filtered.structuredContent).toMatchObject({
      artifactId,
      responsePath: "/items",
      response: [{ "/id": 777, "/name": "item-777" }],
      responseMeta: { returnedCount: 1, totalCount: 1, truncated: false },
    });
    const search = (await downstream.callTool({
      name: QUERY_TOOL_NAME,
      arguments: { artifactId, textSearch: { query: "item-777" }, pageSize: 1 },
    })) as CallToolResult;
    expect(search.structuredContent).toMatchObject({
      artifactId,
      response: [{ pointer: "/items/777/name", context: expect.stringContaining("item-777") }],
    });
    const descriptor = await downstream.readResource({
      uri: `artifact://${mcp.settings.namespace}/${artifactId}`,
    });
    expect(descriptor.contents).toHaveLength(1);
    expect(relay.stats().tools.read_text_file).toMatchObject({ calls: 2, boundedCalls: 1 });
  });

  it("runs a tool's hook with the request and the upstream result; its override is bounded, isError stays", async () => {
    const seen: {
      request: CallToolRequest | null;
      hookRequest: CallToolRequest;
      result: CallToolResult;
    }[] = [];
    const { downstream } = await startRelay({
      read_text_file: ({ request, result }) => {
        seen.push({ request: getRawCallToolRequest(), hookRequest: request, result });
        const traceId = getRawCallToolRequest()?.params._meta?.traceId;
        if (traceId === "big") {
          setRawCallToolResult({ structuredContent: { content: createPayloadText(1) } });
          return;
        }
        setRawCallToolResult({
          content: [{ type: "text", text: `overridden for ${String(traceId)}` }],
          _meta: { hooked: true },
          isError: true,
        } as Parameters<typeof setRawCallToolResult>[0]);
      },
    });
    expect(await readFile(downstream, "small.json", { traceId: "t-1" })).toEqual({
      content: [{ type: "text", text: "overridden for t-1" }],
      structuredContent: { content: SMALL_TEXT },
      _meta: { hooked: true },
    });
    const request = {
      method: "tools/call",
      params: {
        name: "read_text_file",
        arguments: { path: join(directory, "small.json") },
        _meta: { traceId: "t-1" },
      },
    };
    expect(seen).toEqual([
      {
        request,
        hookRequest: request,
        result: {
          content: [{ type: "text", text: SMALL_TEXT }],
          structuredContent: { content: SMALL_TEXT },
        },
      },
    ]);
    const big = await readFile(downstream, "small.json", { traceId: "big" });
    expect(BoundedEnvelopeSchema.parse(big.structuredContent).responseMeta.serializedBytes).toBe(
      Buffer.byteLength(JSON.stringify({ content: createPayloadText(1) })),
    );
  });

  it("relays the upstream result unchanged when a hook throws, and logs it", async () => {
    const { downstream, logger } = await startRelay({
      read_text_file: () => {
        setRawCallToolResult({ content: [] });
        throw new Error("hook bug");
      },
    });
    expect(await readFile(downstream, "small.json")).toEqual({
      content: [{ type: "text", text: SMALL_TEXT }],
      structuredContent: { content: SMALL_TEXT },
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: 'the hook of tool "read_text_file" failed; result relayed unchanged',
      }),
    );
  });

  it("closes the session's upstream child with the downstream", async () => {
    const { session, relay, downstream } = await startRelay();
    expect(relay.sessionCount).toBe(1);
    await downstream.close();
    await session.closed;
    expect(relay.sessionCount).toBe(0);
    expect(session.supervisor?.state).toBe("closed");
  });
});
