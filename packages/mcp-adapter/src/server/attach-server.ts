import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  type ListResourceTemplatesRequest,
  ListResourceTemplatesRequestSchema,
  type ListToolsRequest,
  ListToolsRequestSchema,
  type ListToolsResult,
  McpError,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { descriptorUnavailable } from "../descriptors/read-descriptor.js";
import { type AttachParts, claimServer, relayAttachmentOf } from "./attach-parts.js";
import { handleToolCall } from "./handle-tool-call.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
/** A handler as registered: its request type is the schema's, so it is only ever forwarded. */
type AnyHandler = (request: never, extra: Extra) => unknown;

const SCHEMAS = [
  ListToolsRequestSchema,
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  ListResourcesRequestSchema,
] as const;
const WRAPPED_METHODS = new Set([
  "tools/list",
  "tools/call",
  "resources/templates/list",
  "resources/read",
  "resources/list",
]);

function methodOf(schema: unknown): string | undefined {
  const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  return typeof method === "string" ? method : undefined;
}

/**
 * Adds the query tool and the descriptor template to a low-level `Server` (issue item 8). It
 * must run before the author registers tools/list, tools/call, resources/* handlers (it throws
 * otherwise): it installs its own handlers for those methods and, from then on, keeps the
 * author's handlers for them behind its own. tools/list gets the query tool appended to the
 * first page, tools/call answers `query_response_artifact` itself and hands every other tool to
 * the author's handler inside the per-call result SDK, bounding what it returns (once: a result
 * the handler already passed through `boundResult` is not bounded again), and
 * `artifact://<namespace>/{id}` reads are answered here. Tools with an outputSchema are listed with
 * the rewritten schema and their results enforced against the original (issue item 6). Also declares the tools and resources
 * capabilities, so it must run before `connect`. On a server marked with `markRelayServer`, the
 * tools/call handler is handed to the relay instead of being registered.
 */
export function attachToServer(server: Server, parts: AttachParts): void {
  claimServer(server, () => {
    for (const schema of SCHEMAS) {
      const method = methodOf(schema) ?? "";
      try {
        server.assertCanSetRequestHandler(method);
      } catch {
        throw new Error(
          `attach(server) must run before a ${method} handler is registered: it keeps the author's handlers behind its own`,
        );
      }
    }
  });
  server.registerCapabilities({ tools: {}, resources: {} });
  const authorHandlers = new Map<string, AnyHandler>();
  const author = (method: string) => authorHandlers.get(method);
  const original = server.setRequestHandler.bind(server) as (
    schema: unknown,
    handler: AnyHandler,
  ) => void;
  // A relay routes tools/call itself (see markRelayServer): the handler is handed over.
  const relay = relayAttachmentOf(server);
  const registerToolCall = (schema: unknown, handler: AnyHandler): void => {
    if (relay === undefined) original(schema, handler);
    else relay.callTool = handler as NonNullable<typeof relay.callTool>;
  };
  const pipeline = parts.createPipeline();
  const authorTools = async (request: unknown, extra: Extra): Promise<ListToolsResult> => {
    const handler = author("tools/list");
    return (
      handler === undefined ? { tools: [] } : await handler(request as never, extra)
    ) as ListToolsResult;
  };

  original(ListToolsRequestSchema, async (request: ListToolsRequest, extra: Extra) => {
    const base = await authorTools(request, extra);
    const own = base.tools.filter((tool) => tool.name !== parts.queryTool.name);
    const tools = pipeline.advertise(own);
    return request.params?.cursor === undefined
      ? { ...base, tools: [...tools, parts.queryTool] }
      : { ...base, tools };
  });
  registerToolCall(
    CallToolRequestSchema,
    async (request: CallToolRequest, extra: Extra): Promise<unknown> => {
      const name = request.params.name;
      if (name === parts.queryTool.name) {
        return parts.callQueryTool(
          request.params.arguments,
          extra,
        ) satisfies Promise<CallToolResult>;
      }
      const handler = author("tools/call");
      if (handler === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      }
      return handleToolCall({
        parts,
        pipeline,
        request,
        extra,
        handler: handler as (call: CallToolRequest, callExtra: Extra) => CallToolResult,
        lookup: async () => (await authorTools({ method: "tools/list", params: {} }, extra)).tools,
      });
    },
  );
  original(
    ListResourceTemplatesRequestSchema,
    async (request: ListResourceTemplatesRequest, extra: Extra) => {
      const handler = author("resources/templates/list");
      const base = (
        handler === undefined ? { resourceTemplates: [] } : await handler(request as never, extra)
      ) as { resourceTemplates: unknown[] };
      if (request.params?.cursor !== undefined) return base;
      return { ...base, resourceTemplates: [...base.resourceTemplates, parts.descriptorTemplate] };
    },
  );
  original(ReadResourceRequestSchema, async (request: ReadResourceRequest, extra: Extra) => {
    const { uri } = request.params;
    if (parts.parseUri(uri) !== null) return parts.readDescriptor(uri, extra);
    const handler = author("resources/read");
    if (handler === undefined) throw descriptorUnavailable(uri);
    return handler(request as never, extra);
  });
  original(ListResourcesRequestSchema, async (request: ListResourcesRequest, extra: Extra) => {
    const handler = author("resources/list");
    return handler === undefined ? { resources: [] } : handler(request as never, extra);
  });

  const intercept = (schema: unknown, handler: AnyHandler): void => {
    const method = methodOf(schema);
    if (method !== undefined && WRAPPED_METHODS.has(method)) {
      authorHandlers.set(method, handler);
      return;
    }
    original(schema, handler);
  };
  (server as unknown as { setRequestHandler: typeof intercept }).setRequestHandler = intercept;
}
