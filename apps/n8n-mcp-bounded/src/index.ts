// The public surface of n8n-mcp-bounded: named exports only. The bin is dist/cli.js.

export {
  createExecutionsPreview,
  EXECUTIONS_SUMMARIES,
  executionsPaths,
  MAX_PREVIEW_EXECUTIONS,
} from "./previews/executions-preview.js";
export {
  N8N_PREVIEW_BYTES,
  OMITTED_ITEMS_KEY,
  OMITTED_KEYS_KEY,
  SUMMARIZED_KEY,
} from "./previews/markers.js";
export {
  createN8nPreviewHook,
  N8N_PREVIEWERS,
  type N8nPreviewer,
  type N8nPreviewHookOptions,
} from "./previews/n8n-preview-hook.js";
export {
  createNodeSchemaPreview,
  describeProperty,
  groupOperationsByResource,
  groupPropertiesByDisplay,
  MAX_DEFAULT_CHARS,
  NODE_SCHEMA_SUMMARIES,
  nodeSchemaPaths,
  nodeSchemaRoot,
  summarizeDisplayOptions,
} from "./previews/node-schema-preview.js";
export {
  createNodeSearchPreview,
  NODE_SEARCH_SUMMARIES,
  nodeSearchPaths,
} from "./previews/node-search-preview.js";
export {
  CUT_PREVIEW_LINES,
  createSourceCutPreview,
  isCutByN8nMcp,
  N8N_MCP_CUT_AT,
  N8N_MCP_CUT_MARKER,
  SOURCE_CUT_SUMMARIES,
} from "./previews/source-cut.js";
export {
  createTemplatesPreview,
  TEMPLATES_SUMMARIES,
  templatesPaths,
} from "./previews/templates-preview.js";
export {
  createWorkflowPreview,
  listWorkflowEdges,
  MAX_PREVIEW_EDGES,
  WORKFLOW_SUMMARIES,
  type WorkflowEdge,
  workflowPaths,
} from "./previews/workflow-preview.js";
export { createChildEnvironment, TELEMETRY_VARIABLE } from "./runtime/child-environment.js";
export {
  createN8nMcpBounded,
  N8N_MCP_NAMESPACE,
  type N8nMcpBounded,
  type N8nMcpBoundedOptions,
} from "./runtime/create-n8n-mcp-bounded.js";
export {
  createStderrLogger,
  LOG_LEVELS,
  type LogLevel,
  parseLogLevel,
  type StderrLogger,
} from "./runtime/create-stderr-logger.js";
export { readN8nMcpVersion, resolveN8nMcpEntry } from "./runtime/n8n-mcp-entry.js";
export { N8N_QUERY_TOOL_NOTE } from "./runtime/query-tool-note.js";
