import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { mayHoldInexactNumbers, parseJsonExact } from "@bounded-mcp/query-core";

interface QueryCall {
  params: { arguments: { filters: unknown[] } };
}

interface ToolCall {
  params: { name: unknown; arguments: Record<string, unknown> };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isToolCall(message: unknown): message is ToolCall {
  if (!isRecord(message) || message["method"] !== "tools/call") return false;
  const params = message["params"];
  return isRecord(params) && isRecord(params["arguments"]);
}

function isQueryCall(message: unknown): message is QueryCall {
  if (!isToolCall(message) || message.params.name !== QUERY_TOOL_NAME) return false;
  return Array.isArray(message.params.arguments["filters"]);
}

/**
 * A client message (or a batch of them) `parsed` by JSON.parse from `text`, with the arguments
 * of each tools/call read again from the raw text by query-core's parseJsonExact when the text
 * may hold a number literal a double does not hold (`12345678901234567890`, `-0`, `1e400`;
 * SPEC.md §10): the `filters` of a query_response_artifact call, so such a filter value reaches
 * the query tool as an ExactNumber with its literal; every argument of any other tool, so the
 * relay's stdio transports write the literal on to the upstream as the client wrote it (an
 * ExactNumber's toJSON gives the double, so a plain JSON.stringify, e.g. the SDK's HTTP client
 * transport, writes what it did before). Everything else stays what JSON.parse made (ids, the
 * query's other arguments). Costs the one-regex pre-check (mayHoldInexactNumbers) on tools/call
 * messages only, and a second parse only when it matches. Mutates and returns `parsed`.
 * Limits: only the contract's fixed query tool name is recognised; a tool hook or preview that
 * reads such an argument meets the ExactNumber, not a number.
 */
export function withExactQueryArguments(text: string, parsed: unknown): unknown {
  const batch = Array.isArray(parsed);
  const messages: unknown[] = batch ? parsed : [parsed];
  if (!messages.some(isToolCall) || !mayHoldInexactNumbers(text)) return parsed;
  const exact = parseJsonExact(text);
  const exactMessages: unknown[] = batch && Array.isArray(exact) ? exact : [exact];
  messages.forEach((message, index) => {
    const twin = exactMessages[index];
    if (isQueryCall(message) && isQueryCall(twin)) {
      message.params.arguments.filters = twin.params.arguments.filters;
    } else if (isToolCall(message) && message.params.name !== QUERY_TOOL_NAME && isToolCall(twin)) {
      message.params.arguments = twin.params.arguments;
    }
  });
  return parsed;
}
