// The README's first command. Until the proxy exists it prints the query tool's JSON Schemas as an
// MCP client sees them in tools/list.
import {
  QUERY_TOOL_INPUT_SCHEMA,
  QUERY_TOOL_OUTPUT_SCHEMA,
} from "../../packages/contract/dist/index.js";

console.log(
  JSON.stringify(
    { inputSchema: QUERY_TOOL_INPUT_SCHEMA, outputSchema: QUERY_TOOL_OUTPUT_SCHEMA },
    null,
    2,
  ),
);
