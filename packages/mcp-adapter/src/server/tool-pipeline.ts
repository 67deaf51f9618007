import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { OutputSchemaPolicy } from "../schemas/output-schema-policy.js";

/**
 * outputSchema handling around a server's own tool handlers (docs/sdk-notes.md 4-5):
 * tools/list entries are advertised through the policy (schemas rewritten to admit the bounded
 * envelope and error), and every final tools/call result is enforced against the tool's original
 * schema. Originals are remembered from the server's own tools/list answers.
 */
export interface ToolPipeline {
  /** Rewrites a tools/list page, remembering each tool's original outputSchema. */
  advertise(tools: readonly Tool[]): Tool[];
  /**
   * Enforces a final result of `toolName`; `lookup` lists the tools when the name is not known
   * yet. Answers synchronously when the tool is known (no promise on the per-call path).
   */
  enforce(
    toolName: string,
    result: CallToolResult,
    lookup: () => Promise<readonly Tool[]>,
  ): CallToolResult | Promise<CallToolResult>;
}

/** Creates the pipeline of one attached server. */
export function createToolPipeline(policy: OutputSchemaPolicy): ToolPipeline {
  const originals = new Map<string, Tool>();
  return {
    advertise(tools) {
      return tools.map((tool) => {
        originals.set(tool.name, tool);
        return policy.advertise(tool);
      });
    },
    enforce(toolName, result, lookup) {
      const known = originals.get(toolName);
      if (known !== undefined) return policy.enforce(known, result);
      return lookup().then((tools) => {
        for (const tool of tools) originals.set(tool.name, tool);
        return policy.enforce(originals.get(toolName) ?? { name: toolName }, result);
      });
    },
  };
}
