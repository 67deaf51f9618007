import { type BoundedMcp, createBoundedMcp } from "@bounded-mcp/mcp-adapter";
import { createRecordingLogger, type RecordingLogger } from "@bounded-mcp/mcp-adapter/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  type BoundedRelay,
  type BoundedRelayOptions,
  type BoundedRelaySession,
  createBoundedRelay,
} from "../create-bounded-relay.js";
import { createLinearStdioClientTransport } from "../linear-stdio-client-transport.js";
import type { TransportUpstream } from "../upstream-transport.js";

/** A relay as the apps run it, one downstream SDK client over an in-memory pair, and what it saw. */
export interface StartedRelay {
  relay: BoundedRelay;
  session: BoundedRelaySession;
  bounded: BoundedMcp;
  downstream: Client;
  /** The relay's own client of the upstream (for direct requests to compare with). */
  upstream: Client;
  /** Every message the relay's upstream client sent, in order (for a recorded upstream). */
  sentUpstream: JSONRPCMessage[];
  logger: RecordingLogger;
  /** Closes the relay, then the adapter when the harness created it. */
  close(): Promise<void>;
}

/** Wraps each transport the factory builds so every message it sends is pushed to `sent`. */
export function recordingUpstream(
  name: string,
  createTransport: () => Transport,
  sent: JSONRPCMessage[],
): TransportUpstream {
  return {
    kind: "transport",
    name,
    createTransport: () => {
      const transport = createTransport();
      const send = transport.send.bind(transport);
      transport.send = (message, sendOptions) => {
        sent.push(message);
        return send(message, sendOptions);
      };
      return transport;
    },
  };
}

/** A node script as a stdio child over the linear transport, every message it is sent recorded. */
export function recordedStdioUpstream(
  name: string,
  args: string[],
  sent: JSONRPCMessage[],
  logger?: RecordingLogger,
): TransportUpstream {
  return recordingUpstream(
    name,
    () =>
      createLinearStdioClientTransport({
        command: process.execPath,
        args,
        name,
        closeGraceMs: 100,
        ...(logger === undefined ? {} : { logger }),
      }),
    sent,
  );
}

/** An in-process upstream server: a fresh one (from `create`) per connection, over an in-memory pair. */
export function inMemoryUpstream(
  name: string,
  create: () => Server | McpServer,
): TransportUpstream {
  return {
    kind: "transport",
    name,
    createTransport: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void create().connect(serverSide);
      return clientSide;
    },
  };
}

/**
 * Starts createBoundedRelay (a fresh adapter with an empty environment unless one is given) and
 * connects `downstream` (default a plain client) to one session; resolves once it is ready.
 */
export async function startRelay(
  options: Omit<BoundedRelayOptions, "bounded" | "logger"> & {
    bounded?: BoundedMcp;
    downstream?: Client;
    logger?: RecordingLogger;
    sentUpstream?: JSONRPCMessage[];
  },
): Promise<StartedRelay> {
  const { downstream: given, bounded: givenBounded, sentUpstream = [], ...relayOptions } = options;
  const logger = options.logger ?? createRecordingLogger();
  const bounded = givenBounded ?? createBoundedMcp({ environment: {} });
  const relay = createBoundedRelay({ ...relayOptions, bounded, logger });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await relay.connect(serverSide);
  const downstream = given ?? new Client({ name: "relay-test", version: "1.0.0" });
  await downstream.connect(clientSide);
  const { upstream } = await session.ready;
  return {
    relay,
    session,
    bounded,
    downstream,
    upstream,
    sentUpstream,
    logger,
    async close() {
      await relay.close();
      if (givenBounded === undefined) await bounded.dispose();
    },
  };
}
