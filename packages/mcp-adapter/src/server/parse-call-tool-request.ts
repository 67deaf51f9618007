import {
  type CallToolRequest,
  CallToolRequestSchema,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const PLAIN_PARAM_KEYS = new Set(["name", "arguments", "_meta"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !Object.hasOwn(value, "__proto__");
}

function isPlainMeta(value: unknown): boolean {
  if (!isPlainRecord(value) || Object.hasOwn(value, RELATED_TASK_META_KEY)) return false;
  const token = value.progressToken;
  return token === undefined || typeof token === "string" || Number.isSafeInteger(token);
}

/**
 * A tools/call request exactly as the SDK's `CallToolRequestSchema` parses it (what a registered
 * handler receives), without running zod for the usual shape: a string `name`, plain-object
 * `arguments` and `_meta` (integer or string progressToken), nothing else in params. Any other
 * request (a task, a related-task id, an unknown key, a `__proto__` key, a wrong type) goes
 * through the schema itself, so it is parsed, stripped or rejected with the SDK's own error.
 */
export function parseCallToolRequest(request: {
  method: string;
  params?: unknown;
}): CallToolRequest {
  const params = request.params;
  if (
    request.method === "tools/call" &&
    isPlainRecord(params) &&
    typeof params.name === "string" &&
    Object.keys(params).every((key) => PLAIN_PARAM_KEYS.has(key)) &&
    (params.arguments === undefined || isPlainRecord(params.arguments)) &&
    (params._meta === undefined || isPlainMeta(params._meta))
  ) {
    const parsed: CallToolRequest["params"] = { name: params.name };
    if (params.arguments !== undefined) parsed.arguments = { ...params.arguments };
    if (params._meta !== undefined) parsed._meta = { ...(params._meta as object) };
    return { method: "tools/call", params: parsed };
  }
  return CallToolRequestSchema.parse(request);
}

/**
 * A request schema for an SDK Server's `setRequestHandler` that names tools/call and lets its
 * params through as received (the same object), so the adapter checks `arguments` itself: the
 * SDK's CallToolRequestSchema would fail non-object arguments with a zod dump (-32603) and drop
 * an own `__proto__` key silently. Limits: a low-level Server (SDK 1.32) registering it through
 * its own setRequestHandler still validates every tools/call against CallToolRequestSchema before
 * the handler runs (-32602 for non-object arguments); attach registers past that check
 * (attach-call-tool.ts, docs/sdk-notes.md 19).
 */
export const RAW_CALL_TOOL_REQUEST_SCHEMA = z.looseObject({
  method: z.literal("tools/call"),
  params: z.unknown(),
});
