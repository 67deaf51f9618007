import {
  QUERY_TOOL_INPUT_SCHEMA,
  QUERY_TOOL_NAME,
  QUERY_TOOL_OUTPUT_SCHEMA,
} from "@bounded-mcp/contract";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createQueryToolDescription } from "./description.js";

/** The query tool's annotations: it only reads, repeats give the same page, no outside world. */
export const QUERY_TOOL_ANNOTATIONS = Object.freeze({
  title: "Query a stored tool result",
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

function withoutDialect(schema: Record<string, unknown>): Tool["inputSchema"] {
  const { $schema: _dialect, ...rest } = schema;
  return { ...rest, type: "object" } as Tool["inputSchema"];
}

/**
 * The query tool as tools/list shows it: the contract's strict inputSchema (so clients see
 * `additionalProperties: false` and `required`), the outputSchema that admits the error envelope,
 * the annotations and the description built from the retention period. `descriptionNote` (an
 * app's worked example for its own payloads) is appended to the description as given.
 */
export function createQueryToolDefinition(options: {
  ttlMs: number;
  descriptionNote?: string;
}): Tool {
  const description = createQueryToolDescription(options.ttlMs);
  return {
    name: QUERY_TOOL_NAME,
    title: QUERY_TOOL_ANNOTATIONS.title,
    description:
      options.descriptionNote === undefined
        ? description
        : `${description} ${options.descriptionNote}`,
    inputSchema: withoutDialect(QUERY_TOOL_INPUT_SCHEMA),
    outputSchema: withoutDialect(QUERY_TOOL_OUTPUT_SCHEMA) as Tool["outputSchema"],
    annotations: { ...QUERY_TOOL_ANNOTATIONS },
  };
}
