import {
  createPreviewOverride,
  type Logger,
  type PreviewHook,
  type PreviewInput,
  SILENT_LOGGER,
} from "@bounded-mcp/mcp-adapter";
import { createExecutionsPreview, executionsPaths } from "./executions-preview.js";
import { createNodeSchemaPreview, nodeSchemaPaths, nodeSchemaRoot } from "./node-schema-preview.js";
import { createNodeSearchPreview, nodeSearchPaths } from "./node-search-preview.js";
import { createSourceCutPreview, isCutByN8nMcp } from "./source-cut.js";
import { createTemplatesPreview, templatesPaths } from "./templates-preview.js";
import { createWorkflowPreview, workflowPaths } from "./workflow-preview.js";

/** A preview and the collections worth querying, for one n8n-mcp tool's payload. */
export interface N8nPreviewer {
  preview(document: unknown): unknown;
  paths(document: unknown): string[];
  /** The artifact's responseRoot by this tool's own rule; absent or undefined: the generic one. */
  root?(document: unknown): string | undefined;
}

/** The n8n-aware previews, by n8n-mcp tool name; other tools get the generic preview. */
export const N8N_PREVIEWERS: Readonly<Record<string, N8nPreviewer>> = Object.freeze({
  n8n_get_workflow: { preview: createWorkflowPreview, paths: workflowPaths },
  n8n_executions: { preview: createExecutionsPreview, paths: executionsPaths },
  get_node: { preview: createNodeSchemaPreview, paths: nodeSchemaPaths, root: nodeSchemaRoot },
  search_templates: { preview: createTemplatesPreview, paths: templatesPaths },
  search_nodes: { preview: createNodeSearchPreview, paths: nodeSearchPaths },
});

/** Options of {@link createN8nPreviewHook}. */
export interface N8nPreviewHookOptions {
  /** Told (warn) when a previewer fails on a payload; silent by default. */
  logger?: Logger;
}

function previewN8nPayload({ toolName, document, mediaType }: PreviewInput): unknown {
  if (mediaType === "text/plain") {
    return isCutByN8nMcp(document)
      ? createPreviewOverride({
          preview: createSourceCutPreview(document as { lines: string[] }),
          sourceTruncated: true,
        })
      : undefined;
  }
  if (toolName === undefined || !Object.hasOwn(N8N_PREVIEWERS, toolName)) return undefined;
  const previewer = N8N_PREVIEWERS[toolName] as N8nPreviewer;
  const preview = previewer.preview(document);
  if (preview === undefined) return undefined;
  const responseRoot = previewer.root?.(document);
  return createPreviewOverride({
    preview,
    primaryPaths: previewer.paths(document),
    ...(responseRoot === undefined ? {} : { responseRoot }),
  });
}

/**
 * The adapter preview hook of n8n-mcp-bounded. A text payload that is exactly n8n-mcp's own cut
 * (any tool) is flagged sourceTruncated with a preview saying so; a JSON payload of a tool in
 * N8N_PREVIEWERS gets that tool's preview, primaryPaths pointing at its collections (nodes
 * and connections, executions, properties and operations, items, results) and, for get_node, the
 * responseRoot of nodeSchemaRoot. Everything else, a payload
 * whose shape a previewer does not recognise, and a previewer that throws (logged, never
 * rethrown: a preview must not cost the user the artifact) get the generic preview. Pure and
 * deterministic.
 */
export function createN8nPreviewHook(options: N8nPreviewHookOptions = {}): PreviewHook {
  const logger = options.logger ?? SILENT_LOGGER;
  return (input) => {
    try {
      return previewN8nPayload(input);
    } catch (error) {
      logger.warn("the n8n preview failed; the generic preview is used", {
        tool: input.toolName,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };
}
