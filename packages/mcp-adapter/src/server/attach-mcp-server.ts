import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  ListToolsResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { setRawToolsCallHandler } from "./attach-call-tool.js";
import { type AttachParts, claimServer } from "./attach-parts.js";
import { handleToolCall } from "./handle-tool-call.js";
import { answerUnusableArguments } from "./open-session.js";
import { parseCallToolRequest } from "./parse-call-tool-request.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Handler = (request: unknown, extra: Extra) => Promise<unknown>;

/**
 * A permissive zod schema that advertises `jsonSchema` in tools/list. McpServer validates
 * arguments against the zod schema before the handler runs and would answer `{artifact_id}` or
 * `pageSize: 0` with plain text (docs/sdk-notes.md 1); this one admits any object, zod 4 copies the
 * metadata into the listed JSON Schema, and the contract's parser decides inside the handler.
 */
export function advertisedObjectSchema(jsonSchema: Record<string, unknown>) {
  return z.looseObject({}).meta(jsonSchema);
}

function methodOf(schema: unknown): string | undefined {
  const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  return typeof method === "string" ? method : undefined;
}

/**
 * Wraps the tools/list and tools/call handlers McpServer installs on its inner `Server` (it does
 * so once, at the first registerTool): listed outputSchemas are rewritten, and every result of
 * an ordinary tool runs with the per-call result SDK and is bounded, then enforced, after
 * McpServer's own validation (no transport decorator needed). Non-object arguments and an own
 * `__proto__` argument are answered before McpServer's handler runs (the query tool's
 * INVALID_RESPONSE_CONTROLS envelope, an isError result for another tool), past the Server's own
 * -32602 (setRawToolsCallHandler). The query tool is
 * listed last, with exactly the schemas a low-level Server lists (zod's rendering of the
 * permissive schema would add empty `properties` to the outputSchema).
 */
function interceptToolHandlers(server: McpServer, parts: AttachParts): void {
  const inner = server.server;
  const pipeline = parts.createPipeline();
  const original = inner.setRequestHandler.bind(inner) as (
    schema: unknown,
    handler: Handler,
  ) => void;
  let listTools: Handler | undefined;
  const lookup = (extra: Extra) => async () => {
    if (listTools === undefined) return [];
    return ((await listTools({ method: "tools/list", params: {} }, extra)) as ListToolsResult)
      .tools;
  };
  const intercept = (schema: unknown, handler: Handler): void => {
    const method = methodOf(schema);
    if (method === "tools/list") {
      listTools = handler;
      original(schema, async (request, extra) => {
        const base = (await handler(request, extra)) as ListToolsResult;
        const own = base.tools.filter((tool) => tool.name !== parts.queryTool.name);
        const query = base.tools
          .filter((tool) => tool.name === parts.queryTool.name)
          .map((tool) => ({ ...tool, ...parts.queryTool }));
        return { ...base, tools: [...pipeline.advertise(own), ...query] };
      });
      return;
    }
    if (method === "tools/call") {
      setRawToolsCallHandler(inner, async (request, extra) => {
        const unusable = answerUnusableArguments(parts, request, extra);
        if (unusable !== undefined) return unusable;
        const call = parseCallToolRequest(request);
        if (call.params.name === parts.queryTool.name) return handler(call, extra);
        return handleToolCall({
          parts,
          pipeline,
          request: call,
          extra,
          handler: handler as (
            inner: CallToolRequest,
            innerExtra: Extra,
          ) => Promise<CallToolResult>,
          lookup: lookup(extra),
        });
      });
      return;
    }
    original(schema, handler);
  };
  (inner as unknown as { setRequestHandler: typeof intercept }).setRequestHandler = intercept;
}

/**
 * Attaches to an `McpServer`: call it right after `new McpServer(...)`, before the
 * first registerTool (it throws otherwise). Every tool's results are then bounded without any
 * change to the tool callbacks, outputSchemas are rewritten and enforced, and the query tool (the
 * contract's strict schemas as tools/list shows them, a permissive parser behind them) and the
 * descriptor template `artifact://<namespace>/{id}` are registered.
 */
export function attachToMcpServer(server: McpServer, parts: AttachParts): void {
  claimServer(server.server, () => {
    try {
      server.server.assertCanSetRequestHandler("tools/call");
    } catch {
      throw new Error(
        "attach(mcpServer) must run before the first registerTool: it wraps the tool handlers McpServer installs then",
      );
    }
  });
  interceptToolHandlers(server, parts);
  const { queryTool } = parts;
  server.registerTool(
    queryTool.name,
    {
      ...(queryTool.title === undefined ? {} : { title: queryTool.title }),
      ...(queryTool.description === undefined ? {} : { description: queryTool.description }),
      inputSchema: advertisedObjectSchema(queryTool.inputSchema),
      ...(queryTool.outputSchema === undefined
        ? {}
        : { outputSchema: advertisedObjectSchema(queryTool.outputSchema) }),
      ...(queryTool.annotations === undefined ? {} : { annotations: queryTool.annotations }),
    },
    (argumentsValue: unknown, extra): Promise<CallToolResult> =>
      parts.callQueryTool(argumentsValue, extra),
  );
  const template = parts.descriptorTemplate;
  server.registerResource(
    template.name,
    new ResourceTemplate(template.uriTemplate, { list: undefined }),
    {
      ...(template.title === undefined ? {} : { title: template.title }),
      ...(template.description === undefined ? {} : { description: template.description }),
      ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
    },
    (uri, _variables, extra) => parts.readDescriptor(uri.href, extra),
  );
}
