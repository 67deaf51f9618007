import type { ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { BoundResult } from "../bounding/bound-result.js";
import type { DescriptorReader } from "../descriptors/read-descriptor.js";
import type { Logger } from "../logging/logger.js";
import type { QueryHandler } from "../query-tool/handler.js";
import type { PassSmallResult } from "./pass-small-result.js";
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
  /** boundResult's pass-through of a small result, synchronously (see createSmallResultPass). */
  passSmallResult: PassSmallResult;
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
