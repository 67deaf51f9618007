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
import { findArgumentsProblem } from "./tool-call-shapes.js";

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
 * Whether the adapter answers this (schema-checked) request itself because of its `arguments`
 * (not an object, or an own `__proto__` key): its answer is then a CallToolResult (the query
 * tool's INVALID_RESPONSE_CONTROLS envelope, an isError result for another tool), also when the
 * call asked for a task, since no task is created for it.
 */
function hasUnusableArguments(request: RawToolsCall): boolean {
  const params = request.params as { arguments?: unknown };
  return findArgumentsProblem(params.arguments) !== undefined;
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
 * result for any other tool). Such an answer (also to an own `__proto__` argument) is checked as
 * a CallToolResult even when the call asked for a task (the SDK would fail it with -32602
 * `Invalid task creation result`). `handler` gets the request as received.
 * Limits: relies on Server.setRequestHandler (SDK 1.32) being an override of Protocol's that
 * only adds this wrapper for tools/call; the pinned test in attach-arguments.test.ts fails if
 * non-object arguments stop reaching the adapter. A task-augmented call reaches it only on a
 * server declaring `tasks.requests.tools.call` (without it the SDK's Protocol answers -32603
 * `Server does not support task creation` before any handler, whatever the arguments); a task
 * call of the query tool with usable arguments is still checked as a task creation result.
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
    if (checked.data.params.task && !hasUnusableArguments(request)) {
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
