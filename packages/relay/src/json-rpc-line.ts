import type { JSONRPCMessage } from "./sdk/types.js";

/**
 * The parsed line as a JSON-RPC message after a structural check only. The SDK's Protocol
 * classifies every message again with its own schemas (and reports an unknown one to onerror),
 * so a full zod parse here would validate each message twice (docs/sdk-notes.md 6).
 */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage {
  const candidate = value as Record<string, unknown> | null;
  const shaped =
    typeof candidate === "object" &&
    candidate !== null &&
    !Array.isArray(candidate) &&
    candidate.jsonrpc === "2.0" &&
    (typeof candidate.method === "string" ||
      ("id" in candidate && ("result" in candidate || "error" in candidate)));
  if (!shaped) throw new TypeError("not a JSON-RPC 2.0 request, notification or response");
  return candidate as unknown as JSONRPCMessage;
}

/** The line without a trailing CR (a CRLF sender). */
export function stripCarriageReturn(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

/** The value as an Error (a thrown non-Error wrapped). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
