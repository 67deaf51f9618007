import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createRecordingLogger } from "../../logging/recording-logger.js";
import { type ConnectRelayOptions, connectRelay } from "../connect-relay.js";
import { createLinearStdioClientTransport } from "../linear-stdio-client-transport.js";
import { SERVER_EVERYTHING_PATH } from "./fixture-paths.js";

/** What a relay test holds: the downstream client, what was sent upstream, the upstream logs. */
export interface EverythingRelay {
  downstream: Client;
  upstream: Client;
  /** Every message the relay's upstream client sent to the child, in order. */
  sentUpstream: JSONRPCMessage[];
  logger: ReturnType<typeof createRecordingLogger>;
  close(): Promise<void>;
}

/**
 * server-everything as a stdio child behind a relay, and a downstream SDK client over an in-memory
 * pair. The downstream client is built by the caller (its capabilities and handlers are the test).
 */
export async function startEverythingRelay(
  downstream: Client,
  options: Omit<ConnectRelayOptions, "connectUpstream"> = {},
): Promise<EverythingRelay> {
  const logger = createRecordingLogger();
  const sentUpstream: JSONRPCMessage[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const connection = await connectRelay(serverSide, {
    ...options,
    logger,
    connectUpstream: async ({ clientInfo, capabilities }) => {
      const transport = createLinearStdioClientTransport({
        command: process.execPath,
        args: [SERVER_EVERYTHING_PATH, "stdio"],
        name: "everything",
        logger,
        closeGraceMs: 100,
      });
      const send = transport.send.bind(transport);
      transport.send = (message, sendOptions) => {
        sentUpstream.push(message);
        return send(message, sendOptions);
      };
      const client = new Client(clientInfo, { capabilities });
      await client.connect(transport);
      return client;
    },
  });
  await downstream.connect(clientSide);
  const { upstream } = await connection.ready;
  return {
    downstream,
    upstream,
    sentUpstream,
    logger,
    close: () => connection.close(),
  };
}
