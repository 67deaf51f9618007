// The public surface of @bounded-mcp/mcp-adapter: named exports only (see README.md).

export { deriveArtifactId } from "./artifacts/artifact-id.js";
export {
  type ArtifactService,
  createArtifactService,
  type OpenArtifact,
  type OpenResult,
  parseStoredBody,
  type SaveInput,
} from "./artifacts/artifact-service.js";
export {
  createParseCache,
  type ParseCache,
  type ParseCacheCounters,
  type ParseCacheEntry,
} from "./artifacts/parse-cache.js";
export {
  type CallerScope,
  createScopeFinder,
  deriveLocalScope,
  type ScopeContext,
  type ScopeFinder,
  type ScopeKind,
  type ScopeResolver,
} from "./artifacts/scope.js";
export {
  type BoundContext,
  type BounderDependencies,
  type BoundResult,
  createBounder,
  type PreviewHook,
  type PreviewInput,
} from "./bounding/bound-result.js";
export { type BoundingFailure, buildBoundedError } from "./bounding/bounded-error.js";
export { currentToolName, runWithToolName } from "./bounding/current-tool.js";
export { type Measurement, measureResult } from "./bounding/measure.js";
export { describeBinaryBlock, extractPayload, type Payload } from "./bounding/payload.js";
export { createPreviewOverride, type PreviewOverride } from "./bounding/preview-override.js";
export { ENVIRONMENT_NAMES, ENVIRONMENT_SETTINGS } from "./config/environment-names.js";
export {
  type AdapterSettings,
  type ResolveSettingsInput,
  resolveSettings,
  type SettingsOptions,
} from "./config/resolve-settings.js";
export {
  type ParsedValue,
  parseBoolean,
  parseByteSize,
  parseDuration,
} from "./config/setting-values.js";
export { SettingsError, type SettingsIssue } from "./config/settings-error.js";
export {
  DEFAULT_NAMESPACE,
  DEFAULT_PARSE_CACHE_BYTES,
  MAX_TTL_MS,
  MIN_PREVIEW_BYTES,
  MIN_TTL_MS,
  NAMESPACE_PATTERN,
  SettingsDataSchema,
  STORE_KINDS,
  type StoreKind,
  type StoreSettings,
  StoreSettingsSchema,
} from "./config/settings-schema.js";
export {
  artifactUriTemplate,
  formatArtifactUri,
  parseArtifactUri,
} from "./descriptors/artifact-uri.js";
export { createDescriptor, MAX_DESCRIPTOR_BYTES } from "./descriptors/descriptor.js";
export {
  createDescriptorReader,
  type DescriptorReader,
  descriptorUnavailable,
  RESOURCE_NOT_FOUND,
} from "./descriptors/read-descriptor.js";
export { type LogFields, type Logger, SILENT_LOGGER } from "./logging/logger.js";
export {
  createRecordingLogger,
  type LogRecord,
  type RecordingLogger,
} from "./logging/recording-logger.js";
export { createWarnOnce, type WarnOnce } from "./logging/warn-once.js";
export { createQueryToolDefinition, QUERY_TOOL_ANNOTATIONS } from "./query-tool/definition.js";
export { createQueryToolDescription, formatRetention } from "./query-tool/description.js";
export {
  createQueryHandler,
  type QueryHandler,
  type QueryHandlerDependencies,
  queryToolResult,
} from "./query-tool/handler.js";
export {
  type ConnectRelayOptions,
  connectRelay,
  type DownstreamIdentity,
  type RelayConnection,
} from "./relay/connect-relay.js";
export {
  type BoundedRelay,
  type BoundedRelayOptions,
  type BoundedRelaySession,
  createBoundedRelay,
  type RelayConnectOptions,
} from "./relay/create-bounded-relay.js";
export {
  type ChildExit,
  createLinearStdioClientTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
  describeExit,
  type LinearStdioClientTransport,
  type LinearStdioClientTransportOptions,
} from "./relay/linear-stdio-client-transport.js";
export {
  defineRelayHooks,
  type RelayHooksModule,
  type ToolHook,
  type ToolHookContext,
  type ToolHooks,
  toolHooksFromModule,
} from "./relay/relay-hooks.js";
export {
  createRelayServer,
  type RelayCallContext,
  type RelayLocalTool,
  type RelayServerOptions,
} from "./relay/relay-server.js";
export { computeRestartDelay, type RestartBackoffOptions } from "./relay/restart-backoff.js";
export {
  createUpstreamSupervisor,
  UPSTREAM_REQUEST_OPTIONS,
  type UpstreamState,
  type UpstreamSupervisor,
  type UpstreamSupervisorOptions,
} from "./relay/upstream-supervisor.js";
export { createUpstreamSyncState, type UpstreamSyncState } from "./relay/upstream-sync.js";
export {
  createUpstreamTransport,
  type HttpUpstream,
  type StdioUpstream,
  type UpstreamSpec,
  upstreamName,
} from "./relay/upstream-transport.js";
export {
  type CallInfo,
  getRawCallToolRequest,
  type ResultOverride,
  setRawCallToolResult,
} from "./result-sdk/call-context.js";
export {
  type CallInterceptor,
  type CallInterceptorOptions,
  type CallResultHook,
  type CallToolHandler,
  createCallInterceptor,
  createResultSdkTransport,
  withResultSdk,
} from "./result-sdk/call-interceptor.js";
export {
  createJsonSchemaChecker,
  type JsonSchema,
  type JsonSchemaChecker,
  MAX_COMPILED_SCHEMAS,
  type SchemaVerdict,
  type SchemaViolation,
} from "./schemas/json-schema-validator.js";
export {
  createOutputSchemaDiagnostic,
  createOutputSchemaPolicy,
  type OutputSchemaDecision,
  type OutputSchemaPolicy,
  type OutputSchemaPolicyOptions,
  type OutputSchemaToolOptions,
  type ToolOutputShape,
} from "./schemas/output-schema-policy.js";
export { rewriteOutputSchema, toStructuredContent } from "./schemas/rewrite-output-schema.js";
export { advertisedObjectSchema } from "./server/attach-mcp-server.js";
export {
  type BoundedMcp,
  type BoundedMcpOptions,
  createBoundedMcp,
} from "./server/create-bounded-mcp.js";
export { createStoreFromSettings } from "./server/store-from-settings.js";
export {
  type CallSample,
  createStatsCollector,
  type QuerySample,
  type StatsCollector,
  type StatsSnapshot,
  type ToolStats,
} from "./stats/stats-collector.js";
