import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  type InitializeRequest,
  isInitializeRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../error-message.js";
import type { CallLane } from "./call-lane.js";
import { withFastDispatch } from "./fast-dispatch.js";
import { createRelay, type RelayServerOptions } from "./relay-server.js";

/** Who the downstream client says it is, taken from its initialize request. */
export interface DownstreamIdentity {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
}

/** Options of {@link connectRelay}: the relay's options without `upstream`, plus how to connect it. */
export interface ConnectRelayOptions extends Omit<RelayServerOptions, "upstream"> {
  /**
   * Connects the upstream as the downstream client: build the SDK Client with this clientInfo and
   * these capabilities (some servers, like n8n-mcp, change what they serve by client name; roots,
   * sampling and elicitation only work when declared), connect it and return it.
   */
  connectUpstream: (downstream: DownstreamIdentity) => Promise<Client>;
  /** Closes the upstream when the downstream goes away; default `upstream.close()`. */
  closeUpstream?: (upstream: Client) => Promise<void>;
  /** The caller's principal when the downstream transport does not attach one to each message. */
  authInfo?: AuthInfo;
  /** The session id when the downstream transport has none (used for the caller scope). */
  sessionId?: string;
}

/** A relay serving one downstream connection. */
export interface RelayConnection {
  /** Settles once the downstream initialize has connected the upstream and the relay server. */
  readonly ready: Promise<{ server: Server; upstream: Client }>;
  /** Closes the downstream connection and the upstream client. */
  close(): Promise<void>;
}

type Delivery = [JSONRPCMessage, MessageExtraInfo | undefined];
type InitializeMessage = JSONRPCMessage & InitializeRequest & { id: RequestId };

/**
 * Serves a downstream transport with a relay whose upstream is connected only when the downstream
 * sends initialize, with the downstream's clientInfo and capabilities (docs/sdk-notes.md 10).
 * Messages that arrive before the relay is ready are held and replayed in order, the initialize
 * request first. When connecting the upstream fails, the initialize gets a JSON-RPC
 * error naming the cause and the downstream connection is closed. With `options.port`, the
 * relay's call lane sees each later downstream message first (createRelay).
 */
export async function connectRelay(
  downstream: Transport,
  options: ConnectRelayOptions,
): Promise<RelayConnection> {
  const held: Delivery[] = [];
  let upstream: Client | undefined;
  const closeUpstream = async () => {
    if (upstream === undefined) return;
    await (options.closeUpstream ?? ((client: Client) => client.close()))(upstream);
  };
  const withDefaults = (extra: MessageExtraInfo | undefined): MessageExtraInfo | undefined =>
    options.authInfo === undefined || extra?.authInfo !== undefined
      ? extra
      : { ...extra, authInfo: options.authInfo };
  let settle: {
    resolve: (value: { server: Server; upstream: Client }) => void;
    reject: (error: unknown) => void;
  };
  const ready = new Promise<{ server: Server; upstream: Client }>((resolve, reject) => {
    settle = { resolve, reject };
  });
  ready.catch(() => undefined);

  /** What the relay server connects to: the downstream transport, already started. */
  const inner: Transport = {
    start: async () => {},
    send: (message, sendOptions) => downstream.send(message, sendOptions),
    close: () => downstream.close(),
    get sessionId() {
      return downstream.sessionId ?? options.sessionId;
    },
  };

  async function begin(message: InitializeMessage): Promise<void> {
    try {
      upstream = await options.connectUpstream({
        clientInfo: message.params.clientInfo,
        capabilities: message.params.capabilities,
      });
      const relay = createRelay({ ...options, upstream });
      const server = relay.server;
      await server.connect(withFastDispatch(inner, server));
      lane = relay.lane;
      downstream.onmessage =
        lane === undefined
          ? (next, extra) => inner.onmessage?.(next, withDefaults(extra))
          : (next, extra) => {
              const given = withDefaults(extra);
              if (!(lane as CallLane).takeDownstream(next, given)) inner.onmessage?.(next, given);
            };
      for (const [heldMessage, extra] of held.splice(0)) {
        inner.onmessage?.(heldMessage, withDefaults(extra));
      }
      settle.resolve({ server, upstream });
    } catch (error) {
      settle.reject(error);
      await downstream.send({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: ErrorCode.InternalError,
          message: `the upstream could not be connected: ${errorMessage(error)}`,
        },
      });
      await downstream.close();
    }
  }

  let lane: CallLane | undefined;
  let begun = false;
  downstream.onmessage = (message, extra) => {
    held.push([message, extra]);
    if (!begun && isInitializeRequest(message)) {
      begun = true;
      void begin(message as InitializeMessage);
    }
  };
  downstream.onclose = () => {
    settle.reject(new Error("the downstream closed before the relay was ready"));
    lane?.downstreamClosed();
    inner.onclose?.();
    void closeUpstream();
  };
  downstream.onerror = (error) => inner.onerror?.(error);
  await downstream.start();

  return {
    ready,
    async close() {
      await downstream.close();
      await closeUpstream();
    },
  };
}
