import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import {
  createCallContext,
  infoFromExtra,
  runInCallContext,
  settleCallResult,
} from "../result-sdk/call-context.js";
import type { AttachParts } from "./attach-parts.js";
import type { ToolPipeline } from "./tool-pipeline.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Answers one tools/call of an ordinary tool on an attached server, in the documented order:
 * the handler runs with the per-call result SDK (getRawCallToolRequest / setRawCallToolResult)
 * and the current tool known to boundResult, both in one call context (one AsyncLocalStorage
 * run); then its override is applied; then the result is bounded (unless the handler already
 * did it with boundResult); then it is enforced against the tool's outputSchema. Task-augmented
 * calls are passed through untouched. A handler that throws fails the call with its error.
 */
export async function handleToolCall(input: {
  parts: AttachParts;
  pipeline: ToolPipeline;
  request: CallToolRequest;
  extra: Extra;
  handler: (request: CallToolRequest, extra: Extra) => CallToolResult | Promise<CallToolResult>;
  lookup: () => Promise<readonly Tool[]>;
}): Promise<CallToolResult> {
  const { parts, pipeline, request, extra, handler, lookup } = input;
  if (request.params.task !== undefined) return handler(request, extra);
  const name = request.params.name;
  const context = createCallContext(request, infoFromExtra(extra), name);
  return runInCallContext(context, async () => {
    try {
      const result = settleCallResult(context, await handler(request, extra));
      const bounded = await parts.boundResult(result, { ...context.info, toolName: name });
      return await pipeline.enforce(name, bounded, lookup);
    } finally {
      context.settled = true;
    }
  });
}
