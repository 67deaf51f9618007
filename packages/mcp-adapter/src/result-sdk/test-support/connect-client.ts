import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Anything with the SDK servers' `connect(transport)`: a low-level Server or an McpServer. */
export interface Connectable {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/** A real SDK Client connected to `server` over a linked in-memory transport pair. */
export async function connectClient(
  server: Connectable,
  wrapServerTransport: (transport: Transport) => Transport = (transport) => transport,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(wrapServerTransport(serverTransport));
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
