import { type BoundedRelaySession, createLinearStdioClientTransport } from "@bounded-mcp/relay";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  createN8nMcpBounded,
  type N8nMcpBounded,
  type N8nMcpBoundedOptions,
} from "../../src/runtime/create-n8n-mcp-bounded.js";
import { resolveN8nMcpEntry } from "../../src/runtime/n8n-mcp-entry.js";

/** A fixed key ring, so no random-key warning and stable ids within a run. */
export const TEST_KEYS = `test:${"cd".repeat(32)}`;

/** A real SDK client connected to n8n-mcp-bounded (its relay, its n8n-mcp child). */
export interface BoundedConnection {
  app: N8nMcpBounded;
  /** The relay session serving `client` (its supervisor holds the n8n-mcp child). */
  session: BoundedRelaySession;
  client: Client;
  call(name: string, argumentsValue?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * The environment of a test child: the test's PATH, HOME and XDG_CACHE_HOME (a temporary folder
 * for the run, so the CLI's default store never writes to the real user cache).
 */
export function testEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? "",
    BOUNDED_MCP_KEYS: TEST_KEYS,
    ...extra,
  };
}

/** Starts n8n-mcp-bounded in process and connects a client named `clientName` over memory. */
export async function connectBounded(
  clientName: string,
  options: N8nMcpBoundedOptions = {},
): Promise<BoundedConnection> {
  const app = createN8nMcpBounded({ environment: testEnvironment(), ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await app.relay.connect(serverSide);
  const client = new Client({ name: clientName, version: "1.0.0" });
  await client.connect(clientSide);
  await session.ready;
  return {
    app,
    session,
    client,
    call: async (name, argumentsValue = {}) =>
      (await client.callTool({ name, arguments: argumentsValue })) as CallToolResult,
    async close() {
      await client.close();
      await app.close();
    },
  };
}

/** A real SDK client connected straight to an n8n-mcp child (no adapter), for comparisons. */
export async function connectDirect(
  clientName: string,
  environment: Record<string, string> = testEnvironment({ N8N_MCP_TELEMETRY_DISABLED: "true" }),
): Promise<BoundedConnection["client"]> {
  const client = new Client({ name: clientName, version: "1.0.0" });
  await client.connect(
    createLinearStdioClientTransport({
      command: process.execPath,
      args: [resolveN8nMcpEntry()],
      env: environment,
      name: "n8n-mcp-direct",
    }),
  );
  return client;
}
