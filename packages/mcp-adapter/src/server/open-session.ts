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
import { createOutputSchemaDiagnostic } from "../schemas/output-schema-policy.js";
import type { AttachParts } from "./attach-parts.js";
import { finishToolResult, handleToolCall } from "./handle-tool-call.js";
import { parseCallToolRequest } from "./parse-call-tool-request.js";
import { findArgumentsProblem } from "./tool-call-shapes.js";

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

/** Options of one `runToolCall`. */
export interface RunToolCallOptions {
  /**
   * False when `next` never uses the result SDK (getRawCallToolRequest, setRawCallToolResult,
   * boundResult's current tool): no AsyncLocalStorage context is run for the call (on Node 20 the
   * first run enables an async hook every later promise pays for). Default true.
   */
  resultSdk?: boolean;
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
   * CallToolRequestSchema would, a malformed one throws its ZodError, except `arguments`):
   * non-object arguments or an own `__proto__` argument get the query tool's
   * INVALID_RESPONSE_CONTROLS envelope, and for any other tool an isError result naming the
   * problem (the tool is not called). A result that is not a CallToolResult becomes an isError
   * result naming the problem. The query tool is answered here;
   * any other tool through `next` inside the per-call result SDK, then bounded (scoped to the
   * caller in `extra`) and enforced against its outputSchema. Task-augmented calls go to `next`
   * untouched. The result is returned as produced, not re-validated.
   */
  runToolCall(
    request: { method: string; params?: unknown },
    extra: SessionExtra,
    next: ToolCallNext,
    options?: RunToolCallOptions,
  ): Promise<CallToolResult>;
  /**
   * runToolCall for a caller that sends the call to the tool itself and then holds its result
   * (the relay's call lane): checks the request as runToolCall does and returns how to answer
   * the result, or undefined when runToolCall must answer (the query tool, arguments it answers
   * itself, a task-augmented call, a request that is not a plain tools/call). Throws the ZodError
   * runToolCall rejects with for a malformed request. `finish(produced)` answers the tool's
   * result as runToolCall with `resultSdk: false` would: synchronously when a small result
   * passes through unchanged and the tool's outputSchema is known, else a promise.
   */
  forwardToolCall(
    request: { method: string; params?: unknown },
    extra: SessionExtra,
  ): ForwardedToolCall | undefined;
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

/** A tools/call checked by `forwardToolCall`, waiting for the tool's result. */
export interface ForwardedToolCall {
  /** The answer to the tool's result: bounded and enforced, synchronously when it can be. */
  finish(produced: unknown): CallToolResult | Promise<CallToolResult>;
}

/** The tool name and arguments of a tools/call as received, and its params without the arguments. */
function argumentsOf(raw: { method: string; params?: unknown }): {
  name: string | undefined;
  arguments: unknown;
  rest: unknown;
} {
  const params = raw.params;
  if (raw.method !== "tools/call" || typeof params !== "object" || params === null) {
    return { name: undefined, arguments: undefined, rest: params };
  }
  const { arguments: given, ...rest } = params as Record<string, unknown>;
  const name = typeof rest["name"] === "string" ? rest["name"] : undefined;
  return { name, arguments: given, rest };
}

/**
 * The answer to a tools/call, given as received, whose `arguments` cannot be passed on as they
 * are (not an object, or an own `__proto__` key, which a parse would drop): for the query tool its
 * INVALID_RESPONSE_CONTROLS envelope, for any other tool an isError result naming the problem (the
 * tool is not called). `undefined` when the arguments are usable. The rest of the params are
 * checked as the SDK's CallToolRequestSchema would (a ZodError is thrown).
 */
export function answerUnusableArguments(
  parts: AttachParts,
  raw: { method: string; params?: unknown },
  extra: SessionExtra,
): Promise<CallToolResult> | undefined {
  const given = argumentsOf(raw);
  if (given.name === undefined) return undefined;
  const problem = findArgumentsProblem(given.arguments);
  if (problem === undefined) return undefined;
  parseCallToolRequest({ method: raw.method, params: given.rest });
  if (given.name === parts.queryTool.name) return parts.callQueryTool(given.arguments, extra);
  return Promise.resolve(createOutputSchemaDiagnostic(given.name, problem));
}

/** Creates one session over the adapter's parts (see {@link AdapterSession}). */
export function openSession(parts: AttachParts, options: OpenSessionOptions): AdapterSession {
  const pipeline = parts.createPipeline();
  return {
    advertiseTools(tools, page) {
      const own = pipeline.advertise(tools.filter((tool) => tool.name !== parts.queryTool.name));
      return page.firstPage ? [...own, parts.queryTool] : own;
    },
    async runToolCall(raw, extra, next, callOptions) {
      // Arguments are checked as received, before the SDK schema, which would fail non-object
      // arguments with a zod dump and drop a "__proto__" key silently.
      const given = argumentsOf(raw);
      if (given.name === parts.queryTool.name) {
        parseCallToolRequest({ method: raw.method, params: given.rest });
        return parts.callQueryTool(given.arguments, extra);
      }
      const unusable = answerUnusableArguments(parts, raw, extra);
      if (unusable !== undefined) return unusable;
      const request = parseCallToolRequest(raw);
      return handleToolCall({
        parts,
        pipeline,
        request,
        extra,
        handler: next,
        lookup: () => options.listTools(extra),
        ...(callOptions?.resultSdk === false ? { resultSdk: false } : {}),
      });
    },
    forwardToolCall(raw, extra) {
      const params = raw.params as Record<string, unknown> | undefined;
      if (raw.method !== "tools/call" || typeof params !== "object" || params === null) {
        return undefined;
      }
      const name = params["name"];
      if (typeof name !== "string" || name === parts.queryTool.name) return undefined;
      if (findArgumentsProblem(params["arguments"]) !== undefined) return undefined;
      const request = parseCallToolRequest(raw);
      if (request.params.task !== undefined) return undefined;
      const input = { parts, pipeline, name, extra, lookup: () => options.listTools(extra) };
      return { finish: (produced) => finishToolResult(input, produced) };
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
