import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  ResourceTemplate,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { BoundResult } from "../bounding/bound-result.js";
import type { DescriptorReader } from "../descriptors/read-descriptor.js";
import type { Logger } from "../logging/logger.js";
import type { QueryHandler } from "../query-tool/handler.js";
import type { ToolPipeline } from "./tool-pipeline.js";

/** What attaching adds to a server: the query tool and the descriptor template with their handlers. */
export interface AttachParts {
  queryTool: Tool;
  callQueryTool: QueryHandler;
  descriptorTemplate: ResourceTemplate;
  /** The id in a URI of this adapter's namespace, or null for any other URI. */
  parseUri: (uri: string) => string | null;
  readDescriptor: DescriptorReader;
  boundResult: BoundResult;
  /** A fresh outputSchema pipeline (one per attached server: it remembers that server's tools). */
  createPipeline: () => ToolPipeline;
  logger: Logger;
}

const attached = new WeakSet<object>();

/**
 * Marks a low-level `Server` as attached once `checkOrder` (the attach's own precondition) passes,
 * or throws when it already is (by this adapter or another one, directly or through its
 * `McpServer`): a second attach would stack a second query tool and bound every result twice,
 * and would otherwise fail with a misleading "must run before a handler is registered" message.
 */
export function claimServer(server: object, checkOrder: () => void): void {
  if (attached.has(server)) {
    throw new Error(
      "attach(server) was already called for this server: attach each server to one adapter, once",
    );
  }
  checkOrder();
  attached.add(server);
}

/** A tools/call handler as attach builds it: the request as the SDK's CallToolRequestSchema parses it. */
export type AttachedToolCall = (request: CallToolRequest, extra: AttachExtra) => Promise<unknown>;

type AttachExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What attach hands a relay server instead of registering it (see {@link markRelayServer}). */
export interface RelayAttachment {
  /** The adapter's tools/call handler (query tool, hooks, bounding), set by attach. */
  callTool: AttachedToolCall | undefined;
}

const relayServers = new WeakMap<object, RelayAttachment>();

/**
 * Marks a low-level `Server` as a relay, before attaching to it. Attach then does not register
 * its tools/call handler with the SDK (whose `Server` wraps it to parse the request twice and the
 * result once more, SDK-NOTES.md 6) but hands it over in the returned attachment: the relay calls
 * it from its own request routing, having parsed the request itself. Limits: a result is then
 * sent as the upstream sent it (or as the adapter's envelope); a malformed one is left to the
 * downstream client to reject, as the bare relay always did, instead of becoming a -32602 error.
 */
export function markRelayServer(server: object): RelayAttachment {
  const attachment: RelayAttachment = { callTool: undefined };
  relayServers.set(server, attachment);
  return attachment;
}

/** The attachment of a server marked with {@link markRelayServer}, else undefined. */
export function relayAttachmentOf(server: object): RelayAttachment | undefined {
  return relayServers.get(server);
}
