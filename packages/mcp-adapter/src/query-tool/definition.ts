import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  QUERY_TOOL_COMPACT_INPUT_SCHEMA,
  QUERY_TOOL_COMPACT_OUTPUT_SCHEMA,
} from "../schemas/query-tool-schemas.js";
import { createQueryToolDescription } from "./description.js";

/** The query tool's annotations: it only reads, repeats give the same page, no outside world. */
export const QUERY_TOOL_ANNOTATIONS = Object.freeze({
  title: "Query a stored tool result",
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * The query tool as tools/list shows it: a compact inputSchema, strict at the root (clients see
 * `additionalProperties: false` and `required`; the contract's zod schema still validates every
 * call), a compact outputSchema that admits every result and error,
 * the annotations and the description built from the retention period (and `ephemeralStore`: the
 * store loses artifacts when the process exits). `descriptionNote` (an
 * app's worked example for its own payloads) is appended to the description as given.
 */
export function createQueryToolDefinition(options: {
  ttlMs: number;
  ephemeralStore?: boolean;
  descriptionNote?: string;
}): Tool {
  const description = createQueryToolDescription(options.ttlMs, options.ephemeralStore ?? false);
  return {
    name: QUERY_TOOL_NAME,
    title: QUERY_TOOL_ANNOTATIONS.title,
    description:
      options.descriptionNote === undefined
        ? description
        : `${description} ${options.descriptionNote}`,
    inputSchema: structuredClone(QUERY_TOOL_COMPACT_INPUT_SCHEMA) as Tool["inputSchema"],
    outputSchema: structuredClone(QUERY_TOOL_COMPACT_OUTPUT_SCHEMA) as Tool["outputSchema"],
    annotations: { ...QUERY_TOOL_ANNOTATIONS },
  };
}
