import type { ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
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
