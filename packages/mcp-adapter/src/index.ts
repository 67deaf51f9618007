// The public surface of @bounded-mcp/mcp-adapter (see README.md "API"): named exports only, and
// only what a server author or an app needs; test/public-surface.test.ts pins every name (at most
// about 36). Rarely needed names live in subpaths: `/settings` (the settings table, the settings'
// detail types, withoutAdapterVariables) and `/testing` (createRecordingLogger). Building blocks
// (bounder, query handler, descriptor reader, artifact service, parse cache, schema checker, ...)
// stay internal so they can change without a major release; `createBoundedMcp` composes them
// (the relay is @bounded-mcp/relay).

export type { ScopeContext, ScopeResolver } from "./artifacts/scope.js";
export type {
  BoundContext,
  BoundResult,
  PreviewHook,
  PreviewInput,
} from "./bounding/bound-result.js";
export { createPreviewOverride, type PreviewOverride } from "./bounding/preview-override.js";
export type { RedactHook } from "./bounding/redact-payload.js";
export {
  type AdapterSettings,
  resolveSettings,
  type SettingsOptions,
} from "./config/resolve-settings.js";
export { SettingsError } from "./config/settings-error.js";
export { type LogFields, type Logger, SILENT_LOGGER } from "./logging/logger.js";
export { createLoggerFrom, type StructuredLogTarget } from "./logging/structured-logger.js";
export {
  getRawCallToolRequest,
  type ResultOverride,
  setRawCallToolResult,
} from "./result-sdk/call-context.js";
export {
  type CallToolHandler,
  createResultSdkTransport,
  withResultSdk,
} from "./result-sdk/call-interceptor.js";
export type { JsonSchema } from "./schemas/json-schema-validator.js";
export type { OutputSchemaToolOptions } from "./schemas/output-schema-policy.js";
export { rewriteOutputSchema, toStructuredContent } from "./schemas/rewrite-output-schema.js";
export {
  type BoundedMcp,
  type BoundedMcpOptions,
  createBoundedMcp,
} from "./server/create-bounded-mcp.js";
export type {
  AdapterSession,
  OpenSessionOptions,
  SessionExtra,
  ToolCallNext,
} from "./server/open-session.js";
export type { StatsSnapshot } from "./stats/stats-collector.js";
