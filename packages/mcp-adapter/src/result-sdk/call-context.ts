import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  CallToolRequest,
  CallToolResult,
  ContentBlock,
  RequestInfo,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * The fields a tool handler may override in its own result. Each is optional: an absent field
 * keeps the value derived from what the handler returned. `isError` is deliberately missing:
 * whether a call failed is never overridable.
 */
export interface ResultOverride {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** Who made the call, for scope resolution: what the transport knows about the request. */
export interface CallInfo {
  sessionId?: string;
  authInfo?: AuthInfo;
  requestInfo?: RequestInfo;
}

/**
 * The per-call state kept while a tools/call is being answered: the result SDK's request and
 * override, and, on a server the adapter is attached to, the tool being called and the results
 * boundResult already produced. One context (one AsyncLocalStorage run) per call serves both.
 */
export interface CallContext {
  readonly request: CallToolRequest;
  readonly info: CallInfo;
  override: ResultOverride | undefined;
  /** Set once the result was produced; later overrides are ignored. */
  settled: boolean;
  /** The tool an attached server is answering; undefined under the result SDK alone. */
  readonly toolName: string | undefined;
  /** Results boundResult returned during this call (only tracked when `toolName` is set). */
  boundedResults: WeakSet<object> | undefined;
}

const storage = new AsyncLocalStorage<CallContext>();

/** Runs `run` with `context` as the current call, for it and everything it awaits. */
export function runInCallContext<T>(context: CallContext, run: () => T): T {
  return storage.run(context, run);
}

/** The context of the tools/call being answered, or undefined outside one. */
export function currentCallContext(): CallContext | undefined {
  return storage.getStore();
}

/**
 * A fresh context for one incoming tools/call; `toolName` when an attached server answers it
 * (boundResult then knows the tool and remembers what it returned).
 */
export function createCallContext(
  request: CallToolRequest,
  info: CallInfo,
  toolName?: string,
): CallContext {
  return {
    request,
    info,
    override: undefined,
    settled: false,
    toolName,
    boundedResults: undefined,
  };
}

/** The caller facts of a request handler's `extra` (session id, auth info, HTTP request info). */
export function infoFromExtra(extra: {
  sessionId?: string | undefined;
  authInfo?: CallInfo["authInfo"] | undefined;
  requestInfo?: CallInfo["requestInfo"] | undefined;
}): CallInfo {
  const info: CallInfo = {};
  if (extra.sessionId !== undefined) info.sessionId = extra.sessionId;
  if (extra.authInfo !== undefined) info.authInfo = extra.authInfo;
  if (extra.requestInfo !== undefined) info.requestInfo = extra.requestInfo;
  return info;
}

/**
 * The tools/call request being answered, as it arrived (arguments and `params._meta`, e.g. a
 * progressToken or a caller's trace id), or null outside a tool handler. Works in handlers of a
 * low-level Server wrapped with the result SDK and of an McpServer connected through its
 * transport decorator. Treat the returned object as read-only.
 */
export function getRawCallToolRequest(): CallToolRequest | null {
  return storage.getStore()?.request ?? null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkOverride(override: ResultOverride): ResultOverride {
  if (!isPlainObject(override)) {
    throw new TypeError(
      "setRawCallToolResult expects an object { content?, structuredContent?, _meta? }",
    );
  }
  const picked: ResultOverride = {};
  if (override.content !== undefined) {
    if (!Array.isArray(override.content)) {
      throw new TypeError("setRawCallToolResult: content must be an array of content blocks");
    }
    picked.content = override.content;
  }
  if (override.structuredContent !== undefined) {
    if (!isPlainObject(override.structuredContent)) {
      throw new TypeError("setRawCallToolResult: structuredContent must be an object");
    }
    picked.structuredContent = override.structuredContent;
  }
  if (override._meta !== undefined) {
    if (!isPlainObject(override._meta)) {
      throw new TypeError("setRawCallToolResult: _meta must be an object");
    }
    picked._meta = override._meta;
  }
  return picked;
}

/**
 * Overrides fields of the result of the tools/call being answered (seed: ZuploMcpSdk). Only
 * `content`, `structuredContent` and `_meta` are taken (anything else, `isError` included, is
 * ignored); absent fields keep the value derived from the handler's own result. The override is
 * consumed once, when the call's result is produced; a second call before that replaces the
 * first. The override is applied before bounding, so an oversized override is bounded like any
 * result. Returns false (and does nothing) outside a tool handler or after the result was sent.
 * Throws TypeError for a field of the wrong type, so the mistake shows at the call site.
 */
export function setRawCallToolResult(override: ResultOverride): boolean {
  const picked = checkOverride(override);
  const context = storage.getStore();
  if (context === undefined || context.settled) return false;
  context.override = picked;
  return true;
}

/**
 * The result with the call's override applied and the context settled: later overrides are
 * ignored. `isError` always comes from `result`.
 */
export function settleCallResult(context: CallContext, result: CallToolResult): CallToolResult {
  context.settled = true;
  const override = context.override;
  context.override = undefined;
  if (override === undefined) return result;
  // The override only ever holds content, structuredContent and _meta, so isError stays.
  return { ...result, ...override };
}
