import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach } from "vitest";
import {
  type BoundedMcp,
  type BoundedMcpOptions,
  createBoundedMcp,
} from "../../src/server/create-bounded-mcp.js";
import { jsonTextResult } from "./fixtures.js";

/** A fixed key ring (64 hex characters) so ids are stable and no warning is logged. */
export const TEST_KEYS = `test:${"ab".repeat(32)}`;

/** The clock every test adapter runs on: 2026-01-01T00:00:00Z. */
export const TEST_NOW = Date.parse("2026-01-01T00:00:00.000Z");

/** An adapter with a fixed key ring and clock and an empty environment. */
export function createTestAdapter(options: BoundedMcpOptions = {}): BoundedMcp {
  return createBoundedMcp({ keys: TEST_KEYS, clock: () => TEST_NOW, environment: {}, ...options });
}

/** A tool of the fixture server: its listing and what it returns. */
export interface FixtureTool {
  definition?: Partial<Tool>;
  result: (argumentsValue: Record<string, unknown> | undefined) => CallToolResult;
}

/** A real SDK Client connected to a low-level Server over InMemoryTransport. */
export interface Connection {
  client: Client;
  server: Server;
  close(): Promise<void>;
}

/**
 * A low-level `Server` whose CallTool handler bounds every result with one `boundResult` call,
 * with the query tool attached, and a real `Client` connected to it. `sessionId` is the server
 * transport's session id, so two connections with different ids are two caller scopes.
 */
export async function connectLowLevelServer(
  bounded: BoundedMcp,
  tools: Record<string, FixtureTool>,
  options: { sessionId?: string } = {},
): Promise<Connection> {
  const server = new Server({ name: "fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  bounded.attach(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([name, tool]) => ({
      name,
      inputSchema: { type: "object" as const },
      ...tool.definition,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools[request.params.name];
    if (tool === undefined) throw new Error(`no tool ${request.params.name}`);
    const result = tool.result(request.params.arguments);
    return bounded.boundResult(result, { ...extra, toolName: request.params.name });
  });
  return connect(server, options.sessionId);
}

/** Connects a real Client to `server` over a fresh InMemoryTransport pair. */
export async function connect(server: Server, sessionId?: string): Promise<Connection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (sessionId !== undefined) serverTransport.sessionId = sessionId;
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    server,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * Registers an afterEach (in the calling test file) that closes every connection and disposes
 * every adapter handed to the returned function, so no test leaves a server or a store behind.
 */
export function closeAfterEach(): (bounded: BoundedMcp, connection: Connection) => void {
  let open: { bounded: BoundedMcp; connection: Connection }[] = [];
  afterEach(async () => {
    for (const { bounded, connection } of open) {
      await connection.close();
      await bounded.dispose();
    }
    open = [];
  });
  return (bounded, connection) => {
    open.push({ bounded, connection });
  };
}

/** A well-formed artifact id that no test ever creates. */
export const UNKNOWN_ID = "AAAAAAAAAAAAAAAAAAAAAAAA";

/** The artifact id of the bounded result of calling the `fixture` tool on `connection`. */
export async function artifactOf(connection: Connection): Promise<string> {
  const result = await connection.client.callTool({ name: "fixture", arguments: {} });
  return (result.structuredContent as { responseMeta: { artifact: { id: string } } }).responseMeta
    .artifact.id;
}

/**
 * Two caller scopes on one adapter: sessions "alice" and "bob", each with a `fixture` tool that
 * returns `payload` as JSON text, and the id of the artifact alice's first call made.
 */
export async function connectTwoCallers(bounded: BoundedMcp, payload: unknown) {
  const tools = { fixture: { result: () => jsonTextResult(payload) } };
  const alice = await connectLowLevelServer(bounded, tools, { sessionId: "alice" });
  const bob = await connectLowLevelServer(bounded, tools, { sessionId: "bob" });
  return { alice, bob, id: await artifactOf(alice) };
}
