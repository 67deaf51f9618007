import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { BoundContext } from "../bounding/bound-result.js";
import {
  createCallContext,
  infoFromExtra,
  runInCallContext,
  settleCallResult,
} from "../result-sdk/call-context.js";
import { createOutputSchemaDiagnostic } from "../schemas/output-schema-policy.js";
import type { AttachParts } from "./attach-parts.js";
import { findResultProblem } from "./tool-call-shapes.js";
import type { ToolPipeline } from "./tool-pipeline.js";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Answers one tools/call of an ordinary tool on an attached server, in the documented order:
 * the handler runs with the per-call result SDK (getRawCallToolRequest / setRawCallToolResult)
 * and the current tool known to boundResult, both in one call context (one AsyncLocalStorage
 * run); then its override is applied; then the result is bounded (unless the handler already
 * did it with boundResult); then it is enforced against the tool's outputSchema. Task-augmented
 * calls are passed through untouched. A handler that throws fails the call with its error. A
 * result that is not a CallToolResult (null, content not an array, a text block whose text is not
 * a string, ...) becomes an isError result naming the problem, at once, never a -32603.
 * With `resultSdk: false` (a handler that never reads the call context, e.g. a relay forwarding
 * a tool without a hook) no call context is created: on Node 20 the first AsyncLocalStorage run
 * enables an async hook that every later promise of the process pays for. Limits: the result
 * SDK's functions then behave as outside a call (null, false) inside that handler.
 */
export async function handleToolCall(input: {
  parts: AttachParts;
  pipeline: ToolPipeline;
  request: CallToolRequest;
  extra: Extra;
  handler: (request: CallToolRequest, extra: Extra) => CallToolResult | Promise<CallToolResult>;
  lookup: () => Promise<readonly Tool[]>;
  /** False when the handler does not use the result SDK (default true). */
  resultSdk?: boolean;
}): Promise<CallToolResult> {
  const { parts, pipeline, request, extra, handler, lookup } = input;
  if (request.params.task !== undefined) return handler(request, extra);
  const name = request.params.name;
  if (input.resultSdk === false) {
    const produced: unknown = await handler(request, extra);
    return await finishToolResult({ parts, pipeline, name, extra, lookup }, produced);
  }
  const context = createCallContext(request, infoFromExtra(extra), name);
  return runInCallContext(context, async () => {
    try {
      const produced: unknown = await handler(request, extra);
      const problem = findResultProblem(produced);
      if (problem !== undefined) return refuseResult(parts, name, problem, produced);
      const result = settleCallResult(context, produced as CallToolResult);
      // A hook's override (setRawCallToolResult) may bring blocks of its own.
      const overridden = result === produced ? undefined : findResultProblem(result);
      if (overridden !== undefined) return refuseResult(parts, name, overridden, result);
      const bounded = await parts.boundResult(result, { ...context.info, toolName: name });
      return await pipeline.enforce(name, bounded, lookup);
    } finally {
      context.settled = true;
    }
  });
}

/** What {@link finishToolResult} answers a result with: the tool, its caller, its pipeline. */
export interface ToolResultInput {
  parts: AttachParts;
  pipeline: ToolPipeline;
  name: string;
  extra: Extra;
  lookup: () => Promise<readonly Tool[]>;
}

/**
 * The answer to an ordinary tool's result `produced` outside any call context (handleToolCall's
 * `resultSdk: false` path, and the relay's forwarded calls): an isError result naming the
 * problem when it is not a CallToolResult, else bounded (scoped to the caller in `extra`) and
 * enforced against the tool's outputSchema. Synchronous when the result passes through unchanged
 * (parts.passSmallResult) and the tool's outputSchema is known (a relay answers it without a
 * microtask hop), else a promise. Limits: no call context (the result SDK's functions behave as
 * outside a call).
 */
export function finishToolResult(
  input: ToolResultInput,
  produced: unknown,
): CallToolResult | Promise<CallToolResult> {
  const { parts, pipeline, name, lookup } = input;
  const problem = findResultProblem(produced);
  if (problem !== undefined) return refuseResult(parts, name, problem, produced);
  const passed = parts.passSmallResult(produced as CallToolResult, name);
  if (passed !== undefined) return pipeline.enforce(name, passed, lookup);
  return boundThenEnforce(input, produced as CallToolResult);
}

async function boundThenEnforce(
  input: ToolResultInput,
  produced: CallToolResult,
): Promise<CallToolResult> {
  // infoFromExtra builds a fresh object: naming the tool on it avoids a spread (on Node 20 a
  // spread followed by another property costs about a microsecond, on every call).
  const info: BoundContext = infoFromExtra(input.extra);
  info.toolName = input.name;
  const bounded = await input.parts.boundResult(produced, info);
  return await input.pipeline.enforce(input.name, bounded, input.lookup);
}

/** The isError result that replaces a result which is not a CallToolResult; logged once per call. */
function refuseResult(
  parts: AttachParts,
  name: string,
  problem: string,
  produced: unknown,
): CallToolResult {
  parts.logger.warn(
    "a tool returned a result that is not a CallToolResult; answered with an error",
    {
      tool: name,
      problem,
    },
  );
  const meta = (produced as { _meta?: unknown } | null)?._meta;
  const isMeta = typeof meta === "object" && meta !== null && !Array.isArray(meta);
  return createOutputSchemaDiagnostic(
    name,
    `${problem}. The result was not passed on; call the tool again or report it to its server's maintainers.`,
    isMeta ? (meta as CallToolResult["_meta"]) : undefined,
  );
}
