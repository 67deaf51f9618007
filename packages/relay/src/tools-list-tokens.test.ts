import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoundedEnvelopeSchema, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { findStrictSchemaProblems } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { getEncoding } from "js-tiktoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BoundedRelay, createBoundedRelay } from "./create-bounded-relay.js";
import { SERVER_FILESYSTEM_PATH } from "./test-support/fixture-paths.js";
import { createPayloadText } from "./test-support/payload.mjs";

/** cl100k_base (js-tiktoken): a real tokenizer, so budgets are in the unit a model pays. */
const encoding = getEncoding("cl100k_base");
const tokens = (value: unknown) => encoding.encode(JSON.stringify(value)).length;

let directory: string;
let mcp: BoundedMcp;
let relay: BoundedRelay;
let downstream: Client;
let own: Tool[];
let bounded: Tool[];

async function listDirectly(): Promise<Tool[]> {
  const client = new Client({ name: "tools-list-tokens", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_FILESYSTEM_PATH, directory],
      stderr: "ignore",
    }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "tools-list-tokens-"));
  await writeFile(join(directory, "one-mib.json"), createPayloadText(1));
  own = await listDirectly();
  mcp = createBoundedMcp({ environment: {} });
  relay = createBoundedRelay({
    bounded: mcp,
    upstream: {
      kind: "stdio",
      command: process.execPath,
      args: [SERVER_FILESYSTEM_PATH, directory],
      name: "filesystem",
    },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(serverSide);
  downstream = new Client({ name: "tools-list-tokens", version: "1.0.0" });
  await downstream.connect(clientSide);
  await session.ready;
  bounded = (await downstream.listTools()).tools;
}, 60_000);

afterAll(async () => {
  await relay?.close();
  await mcp?.dispose();
  await rm(directory, { recursive: true, force: true });
});

const queryTool = () => bounded.find((tool) => tool.name === QUERY_TOOL_NAME)!;

describe("tools/list through the relay in front of server-filesystem", () => {
  it("adds at most 1,500 tokens to the server's own list", () => {
    expect(own.length).toBeGreaterThan(10);
    expect(bounded.map((tool) => tool.name)).toEqual([
      ...own.map((tool) => tool.name),
      QUERY_TOOL_NAME,
    ]);
    expect(tokens(bounded) - tokens(own)).toBeLessThanOrEqual(1_500);
  });

  it("lists the query tool (name, description, inputSchema, outputSchema) in at most 1,000 tokens", () => {
    const { name, description, inputSchema, outputSchema } = queryTool();
    expect(tokens({ name, description, inputSchema, outputSchema })).toBeLessThanOrEqual(1_000);
    expect(tokens(queryTool())).toBeLessThanOrEqual(1_000);
  });

  it("grows each tool with an outputSchema by at most 60 tokens, and no other tool at all", () => {
    const rewritten = own.filter((tool) => tool.outputSchema !== undefined);
    expect(rewritten.length).toBeGreaterThan(5);
    for (const tool of own) {
      const listed = bounded.find((candidate) => candidate.name === tool.name)!;
      const growth = tokens(listed) - tokens(tool);
      expect({ tool: tool.name, within: growth <= (tool.outputSchema ? 60 : 0) }).toEqual({
        tool: tool.name,
        within: true,
      });
    }
  });

  it("emits no type array, empty schema, boolean schema or untyped schema of its own", () => {
    const problems = (tools: Tool[]) =>
      tools.flatMap((tool) =>
        [
          ...findStrictSchemaProblems(tool.inputSchema, "/inputSchema"),
          ...findStrictSchemaProblems(tool.outputSchema, "/outputSchema"),
        ].map((problem) => ({ tool: tool.name, ...problem })),
      );
    const ownProblems = problems(own).map((problem) =>
      problem.pointer.startsWith("/outputSchema")
        ? { ...problem, pointer: problem.pointer.replace("/outputSchema", "/outputSchema/anyOf/0") }
        : problem,
    );
    expect(problems(bounded)).toEqual(ownProblems);
    expect(problems([queryTool()])).toEqual([]);
  });

  it("returns a bounded envelope of read_text_file that the real SDK Client validates against the rewritten schema", async () => {
    const tool = bounded.find((candidate) => candidate.name === "read_text_file")!;
    expect(tool.outputSchema?.["anyOf"]).toHaveLength(2);
    const result = await downstream.callTool({
      name: "read_text_file",
      arguments: { path: join(directory, "one-mib.json") },
    });
    expect(BoundedEnvelopeSchema.parse(result.structuredContent).responseMeta.truncated).toBe(true);
  });
});
