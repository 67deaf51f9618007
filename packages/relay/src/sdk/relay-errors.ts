import { McpError } from "@modelcontextprotocol/sdk/types.js";

/** What the SDK Server reads of an error a request handler threw, to build its error response. */
export interface RelayErrorLike {
  code?: unknown;
  message?: string;
  data?: unknown;
}

/**
 * An upstream error as the downstream should see it: the same code, message and data. McpError
 * prefixes its message with "MCP error <code>: ", which would otherwise be added again downstream.
 * Any other error is returned as it is.
 */
export function asDownstreamError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}
