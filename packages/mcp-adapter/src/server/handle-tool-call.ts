import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { runWithToolName } from "../bounding/current-tool.js";
import { createCallInterceptor } from "../result-sdk/call-interceptor.js";
import type { AttachParts } from "./attach-parts.js";
import type { ToolPipeline } from "./tool-pipeline.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Answers one tools/call of an ordinary tool on an attached server, in the documented order:
 * the handler runs with the per-call result SDK (getRawCallToolRequest / setRawCallToolResult)
 * and the current tool known to boundResult; then its override is applied; then the result is
 * bounded (unless the handler already did it with boundResult); then it is enforced against the
 * tool's outputSchema. Task-augmented calls are passed through untouched.
 */
export async function handleToolCall(input: {
  parts: AttachParts;
  pipeline: ToolPipeline;
  request: CallToolRequest;
  extra: Extra;
  handler: (request: CallToolRequest, extra: Extra) => Promise<CallToolResult>;
  lookup: () => Promise<readonly Tool[]>;
}): Promise<CallToolResult> {
  const { parts, pipeline, request, extra, handler, lookup } = input;
  if (request.params.task !== undefined) return handler(request, extra);
  const name = request.params.name;
  const interceptor = createCallInterceptor({
    logger: parts.logger,
    onResult: async (_request, result, info) =>
      pipeline.enforce(name, await parts.boundResult(result, { ...info, toolName: name }), lookup),
  });
  return runWithToolName(name, () => interceptor.wrapHandler(handler)(request, extra));
}
