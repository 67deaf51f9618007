import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
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
  type ReadResourceResult,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { setRawToolsCallHandler } from "./attach-call-tool.js";
import { type AttachParts, claimServer } from "./attach-parts.js";
import { openSession, type ToolCallNext } from "./open-session.js";

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

const toolNotFound: ToolCallNext = async (request) => {
  throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
};

function methodOf(schema: unknown): string | undefined {
  const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  return typeof method === "string" ? method : undefined;
}

/**
 * Adds the query tool and the descriptor template to a low-level `Server`. It must run before
 * the author registers tools/list, tools/call, resources/* handlers (it throws
 * otherwise): it installs its own handlers for those methods and, from then on, keeps the
 * author's handlers for them behind its own. tools/list gets the query tool appended to the
 * first page, tools/call answers `query_response_artifact` itself and hands every other tool to
 * the author's handler inside the per-call result SDK, bounding what it returns (once: a result
 * the handler already passed through `boundResult` is not bounded again); non-object arguments
 * get the query tool's INVALID_RESPONSE_CONTROLS envelope, or an isError result naming the
 * problem for another tool (setRawToolsCallHandler: past the Server's own -32602), and
 * `artifact://<namespace>/{id}` reads are answered here. Tools with an outputSchema are listed with
 * the rewritten schema and their results enforced against the original. Also declares the tools
 * and resources capabilities, so it must run before `connect`. The answers themselves are the
 * adapter session's (open-session.ts), the same ones the relay calls.
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
  const authorTools = async (request: unknown, extra: Extra): Promise<ListToolsResult> => {
    const handler = author("tools/list");
    return (
      handler === undefined ? { tools: [] } : await handler(request as never, extra)
    ) as ListToolsResult;
  };
  const session = openSession(parts, {
    listTools: async (extra) =>
      (await authorTools({ method: "tools/list", params: {} }, extra)).tools,
  });

  original(ListToolsRequestSchema, async (request: ListToolsRequest, extra: Extra) => {
    const base = await authorTools(request, extra);
    const firstPage = request.params?.cursor === undefined;
    return { ...base, tools: session.advertiseTools(base.tools, { firstPage }) };
  });
  setRawToolsCallHandler(server, (request, extra) => {
    const handler = author("tools/call") as ToolCallNext | undefined;
    return session.runToolCall(request, extra, handler ?? toolNotFound);
  });
  original(
    ListResourceTemplatesRequestSchema,
    async (request: ListResourceTemplatesRequest, extra: Extra) => {
      const handler = author("resources/templates/list");
      const base = (
        handler === undefined ? { resourceTemplates: [] } : await handler(request as never, extra)
      ) as { resourceTemplates: unknown[] };
      const firstPage = request.params?.cursor === undefined;
      return {
        ...base,
        resourceTemplates: session.advertiseResourceTemplates(base.resourceTemplates, {
          firstPage,
        }),
      };
    },
  );
  original(ReadResourceRequestSchema, (request: ReadResourceRequest, extra: Extra) => {
    const handler = author("resources/read");
    return session.readResource(
      request.params.uri,
      extra,
      handler === undefined
        ? undefined
        : async () => (await handler(request as never, extra)) as ReadResourceResult,
    );
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
