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

/** parseJsonExact's twin of each tools/call's arguments, when `text` may hold such a literal. */
function readExactly(text: string, parsed: unknown, otherTools: boolean): unknown {
  const batch = Array.isArray(parsed);
  const messages: unknown[] = batch ? parsed : [parsed];
  const wanted = otherTools ? isToolCall : isQueryCall;
  if (!messages.some(wanted) || !mayHoldInexactNumbers(text)) return parsed;
  const exact = parseJsonExact(text);
  const exactMessages: unknown[] = batch && Array.isArray(exact) ? exact : [exact];
  messages.forEach((message, index) => {
    const twin = exactMessages[index];
    if (isQueryCall(message) && isQueryCall(twin)) {
      message.params.arguments.filters = twin.params.arguments.filters;
    } else if (
      otherTools &&
      isToolCall(message) &&
      message.params.name !== QUERY_TOOL_NAME &&
      isToolCall(twin)
    ) {
      message.params.arguments = twin.params.arguments;
    }
  });
  return parsed;
}

/**
 * A client message (or a batch of them) `parsed` by JSON.parse from `text`, with the `filters`
 * of each query_response_artifact call read again from the raw text by query-core's
 * parseJsonExact, so a filter value a double does not hold (`12345678901234567890`, `-0`,
 * `1e400`) reaches the query tool as an ExactNumber with its literal (SPEC.md §10). Everything
 * else stays what JSON.parse made (ids, other tools' arguments, the query's other arguments), so
 * no other reader meets an ExactNumber. Costs the one-regex pre-check (mayHoldInexactNumbers)
 * on query calls with filters only, and a second parse only when it matches. Mutates and returns
 * `parsed`. Limits: only the contract's fixed query tool name is recognised.
 */
export function withExactQueryArguments(text: string, parsed: unknown): unknown {
  return readExactly(text, parsed, false);
}

/**
 * withExactQueryArguments, and also every argument of any other tool's call read exactly, for a
 * relay: its stdio client transport then writes such a literal on to the upstream as the client
 * wrote it (an ExactNumber's toJSON gives the double, so a plain JSON.stringify, e.g. the SDK's
 * HTTP client transport, writes what it did before). What serves the relay (serveStdio, the
 * proxy's HTTP body) uses it. Costs the pre-check on every tools/call. Limits: a tool hook that
 * reads such an argument meets the ExactNumber, not a number (ToolHookContext.request), and a
 * server's own tool with a `z.number()` argument would refuse it: not for serving tools of one's
 * own.
 */
export function withExactToolArguments(text: string, parsed: unknown): unknown {
  return readExactly(text, parsed, true);
}
