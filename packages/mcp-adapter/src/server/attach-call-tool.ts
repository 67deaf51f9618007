import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { RAW_CALL_TOOL_REQUEST_SCHEMA } from "./parse-call-tool-request.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A tools/call as received: `params` exactly as the client sent them. */
export interface RawToolsCall {
  method: string;
  params?: unknown;
}

type RawHandler = (request: RawToolsCall, extra: Extra) => unknown;
type Register = (this: Server, schema: unknown, handler: RawHandler) => void;

/** The request with `arguments` left out when they are there but not an object, else itself. */
function withoutNonObjectArguments(request: RawToolsCall): RawToolsCall {
  const params = request.params;
  if (typeof params !== "object" || params === null || !("arguments" in params)) return request;
  const given = (params as { arguments?: unknown }).arguments;
  if (
    given === undefined ||
    (typeof given === "object" && given !== null && !Array.isArray(given))
  ) {
    return request;
  }
  const { arguments: _dropped, ...rest } = params as Record<string, unknown>;
  return { ...request, params: rest };
}

/**
 * Registers the tools/call handler of an attached low-level `Server` (also an McpServer's inner
 * one) past the Server's own tools/call wrapper, which refuses non-object `arguments` (`[]`,
 * `"x"`, `42`, `null`) with -32602 before any handler runs (docs/sdk-notes.md 19): it registers
 * through `Protocol.prototype.setRequestHandler`, the method Server's override calls after
 * wrapping, and does the wrapper's checks itself, except on `arguments`: the rest of the request
 * is checked against CallToolRequestSchema (-32602 `Invalid tools/call request: ...` as the SDK
 * answers), the result against CallToolResultSchema (CreateTaskResultSchema for a task) as the
 * SDK does, so only non-object arguments change outcome: they reach `handler`, which answers
 * them (the adapter session: the query tool's INVALID_RESPONSE_CONTROLS envelope, an isError
 * result for any other tool). `handler` gets the request as received.
 * Limits: relies on Server.setRequestHandler (SDK 1.32) being an override of Protocol's that
 * only adds this wrapper for tools/call; the pinned test in attach-arguments.test.ts fails if
 * non-object arguments stop reaching the adapter.
 */
export function setRawToolsCallHandler(server: Server, handler: RawHandler): void {
  const register = Protocol.prototype.setRequestHandler as unknown as Register;
  register.call(server, RAW_CALL_TOOL_REQUEST_SCHEMA, async (request, extra) => {
    const checked = CallToolRequestSchema.safeParse(withoutNonObjectArguments(request));
    if (!checked.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid tools/call request: ${checked.error.message}`,
      );
    }
    const result = await handler(request, extra);
    if (checked.data.params.task) {
      const task = CreateTaskResultSchema.safeParse(result);
      if (!task.success) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid task creation result: ${task.error.message}`,
        );
      }
      return task.data;
    }
    const validated = CallToolResultSchema.safeParse(result);
    if (!validated.success) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid tools/call result: ${validated.error.message}`,
      );
    }
    return validated.data;
  });
}
