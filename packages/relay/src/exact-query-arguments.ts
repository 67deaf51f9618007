import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { mayHoldInexactNumbers, parseJsonExact } from "@bounded-mcp/query-core";

interface QueryCall {
  params: { arguments: { filters: unknown[] } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isQueryCall(message: unknown): message is QueryCall {
  if (!isRecord(message) || message["method"] !== "tools/call") return false;
  const params = message["params"];
  if (!isRecord(params) || params["name"] !== QUERY_TOOL_NAME) return false;
  const argumentsValue = params["arguments"];
  return isRecord(argumentsValue) && Array.isArray(argumentsValue["filters"]);
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
  const batch = Array.isArray(parsed);
  const messages: unknown[] = batch ? parsed : [parsed];
  if (!messages.some(isQueryCall) || !mayHoldInexactNumbers(text)) return parsed;
  const exact = parseJsonExact(text);
  const exactMessages: unknown[] = batch && Array.isArray(exact) ? exact : [exact];
  messages.forEach((message, index) => {
    const twin = exactMessages[index];
    if (isQueryCall(message) && isQueryCall(twin)) {
      message.params.arguments.filters = twin.params.arguments.filters;
    }
  });
  return parsed;
}
