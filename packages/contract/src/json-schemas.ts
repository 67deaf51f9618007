import { z } from "zod";
import { QueryRequestSchema } from "./query-request.js";
import { QueryToolOutputSchema } from "./query-result.js";

/** The query tool's inputSchema as an MCP client sees it in tools/list. */
export const QUERY_TOOL_INPUT_SCHEMA = z.toJSONSchema(QueryRequestSchema) as Record<
  string,
  unknown
>;

/** The query tool's outputSchema (admits the error envelope); top-level `type: "object"`. */
export const QUERY_TOOL_OUTPUT_SCHEMA = {
  type: "object",
  ...(z.toJSONSchema(QueryToolOutputSchema) as Record<string, unknown>),
};
