import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  ReadResourceResult,
  ResourceTemplate,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { descriptorUnavailable } from "../descriptors/read-descriptor.js";
import type { AttachParts } from "./attach-parts.js";
import { handleToolCall } from "./handle-tool-call.js";
import { parseCallToolRequest } from "./parse-call-tool-request.js";

/** The handler context of one downstream request (signal, session id, auth info, notifications). */
export type SessionExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Produces the result of an ordinary tool call: what a relay forwards upstream, an author's handler. */
export type ToolCallNext = (
  request: CallToolRequest,
  extra: SessionExtra,
) => Promise<CallToolResult>;

/** Options of `bounded.openSession`. */
export interface OpenSessionOptions {
  /**
   * Lists the tools behind the session (first page), when a tool is called before it was listed:
   * its original outputSchema is needed to enforce the result.
   */
  listTools: (extra: SessionExtra) => Promise<readonly Tool[]>;
}

/**
 * The adapter's answers for one connection of code that owns its SDK `Server` and routes requests
 * itself (the relay): the same behaviour `attach` gives an author's server, as plain calls. One
 * session per downstream connection: it remembers the original outputSchemas that connection
 * was shown.
 */
export interface AdapterSession {
  /**
   * A tools/list page as the downstream sees it: outputSchemas rewritten to admit the bounded
   * envelope and error (originals remembered for enforcement), the query tool appended to the
   * first page. A tool named like the query tool is dropped (the caller should refuse it first).
   */
  advertiseTools(tools: readonly Tool[], page: { firstPage: boolean }): Tool[];
  /**
   * Answers one tools/call, given as received (`{ method, params }`; parsed as the SDK's
   * CallToolRequestSchema would, a malformed one throws its ZodError): the query tool here;
   * any other tool through `next` inside the per-call result SDK, then bounded (scoped to the
   * caller in `extra`) and enforced against its outputSchema. Task-augmented calls go to `next`
   * untouched. The result is returned as produced, not re-validated.
   */
  runToolCall(
    request: { method: string; params?: unknown },
    extra: SessionExtra,
    next: ToolCallNext,
  ): Promise<CallToolResult>;
  /** A resources/templates/list page: the artifact descriptor template appended to the first. */
  advertiseResourceTemplates<T>(
    templates: readonly T[],
    page: { firstPage: boolean },
  ): (T | ResourceTemplate)[];
  /**
   * Answers a resources/read: an `artifact://<namespace>/<id>` URI here (the caller's own
   * descriptor, else McpError -32002); any other URI through `next`, or -32002 without one.
   */
  readResource(
    uri: string,
    extra: SessionExtra,
    next?: () => Promise<ReadResourceResult>,
  ): Promise<ReadResourceResult>;
}

/** Creates one session over the adapter's parts (see {@link AdapterSession}). */
export function openSession(parts: AttachParts, options: OpenSessionOptions): AdapterSession {
  const pipeline = parts.createPipeline();
  return {
    advertiseTools(tools, page) {
      const own = pipeline.advertise(tools.filter((tool) => tool.name !== parts.queryTool.name));
      return page.firstPage ? [...own, parts.queryTool] : own;
    },
    async runToolCall(raw, extra, next) {
      const request = parseCallToolRequest(raw);
      if (request.params.name === parts.queryTool.name) {
        return parts.callQueryTool(request.params.arguments, extra);
      }
      return handleToolCall({
        parts,
        pipeline,
        request,
        extra,
        handler: next,
        lookup: () => options.listTools(extra),
      });
    },
    advertiseResourceTemplates(templates, page) {
      return page.firstPage ? [...templates, parts.descriptorTemplate] : [...templates];
    },
    async readResource(uri, extra, next) {
      if (parts.parseUri(uri) !== null) return parts.readDescriptor(uri, extra);
      if (next === undefined) throw descriptorUnavailable(uri);
      return next();
    },
  };
}
