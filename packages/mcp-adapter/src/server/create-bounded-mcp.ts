import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { createViewCache } from "@bounded-mcp/query-core";
import type { ArtifactStore } from "@bounded-mcp/stores";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { createArtifactService, type OpenArtifact } from "../artifacts/artifact-service.js";
import { estimateHeapBytes } from "../artifacts/heap-estimate.js";
import { createParseCache } from "../artifacts/parse-cache.js";
import { createScopeFinder, type ScopeResolver } from "../artifacts/scope.js";
import { type BoundResult, createBounder, type PreviewHook } from "../bounding/bound-result.js";
import type { RedactHook } from "../bounding/redact-payload.js";
import {
  type AdapterSettings,
  resolveSettings,
  type SettingsOptions,
} from "../config/resolve-settings.js";
import {
  artifactUriTemplate,
  formatArtifactUri,
  parseArtifactUri,
} from "../descriptors/artifact-uri.js";
import { createDescriptorReader, type DescriptorReader } from "../descriptors/read-descriptor.js";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { createQueryToolDefinition } from "../query-tool/definition.js";
import { createQueryHandler, type QueryHandler } from "../query-tool/handler.js";
import {
  createOutputSchemaPolicy,
  type OutputSchemaToolOptions,
} from "../schemas/output-schema-policy.js";
import { createStatsCollector, type StatsSnapshot } from "../stats/stats-collector.js";
import { attachToMcpServer } from "./attach-mcp-server.js";
import type { AttachParts } from "./attach-parts.js";
import { attachToServer } from "./attach-server.js";
import { type AdapterSession, type OpenSessionOptions, openSession } from "./open-session.js";
import { createSmallResultPass } from "./pass-small-result.js";
import {
  createStoreFromSettings,
  defaultMaxQueriesPerPrincipal,
  type Principals,
} from "./store-from-settings.js";
import { createToolPipeline } from "./tool-pipeline.js";

/**
 * Options of `createBoundedMcp`: every setting of `SettingsOptions` (inlineBytes, ttl, namespace,
 * resourceLinks, keys, store, ...: the names of `ADAPTER_SETTINGS`; each wins over its environment
 * variable), plus what can only be given in code.
 */
export interface BoundedMcpOptions extends SettingsOptions {
  /**
   * Settings an app already resolved (`resolveSettingsWith`: flags, environment, file, defaults,
   * read once); then no setting option and no environment is read here.
   */
  resolvedSettings?: AdapterSettings;
  /** A ready store; by default the one the settings describe (memory unless configured). */
  artifactStore?: ArtifactStore;
  /** The caller's scope; by default AuthInfo.clientId, else the session id, else the local scope. */
  scope?: ScopeResolver;
  /** Reshapes a payload before the generic preview compaction (deterministic only). */
  preview?: PreviewHook;
  /**
   * Rewrites an oversized result's payload text before it is stored or previewed (replace
   * secrets); a throw or non-JSON for a JSON payload refuses the result (see RedactHook).
   */
  redact?: RedactHook;
  /**
   * Sentences appended to the query tool's description: an app's worked example for its own
   * payloads (keep it to a few hundred characters; every tools/list carries it).
   */
  queryToolNote?: string;
  /** Receives warnings and store failures; silent by default. */
  logger?: Logger;
  /** Milliseconds since the epoch; tests inject it. Default Date.now. */
  clock?: () => number;
  /**
   * Monotonic milliseconds for queries: their 50 ms slices and the textSearch work limit
   * (the `queryWorkMs` setting, `limits.queryWorkMs`). Default performance.now; tests inject it.
   */
  queryClock?: () => number;
  /**
   * "many" for a server several principals share (HTTP with tokens or sessions): then the
   * per-principal settings default to a quarter of the store's cap (quotaPerPrincipal) and 4
   * queries at once (maxQueriesPerPrincipal). Default "one" (stdio): no shares, no query limit.
   */
  principals?: Principals;
  /** Where BOUNDED_MCP_* and MCP_RESPONSE_* are read; default process.env. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** includeOutputSchema / includeStructuredContent per tool name (defaults come from the settings). */
  tools?: Readonly<Record<string, OutputSchemaToolOptions>>;
}

/** One adapter: a store, a key ring, a parse cache and stats, shared by every server it attaches to. */
export interface BoundedMcp {
  /** The validated settings it runs with. */
  readonly settings: AdapterSettings;
  readonly store: ArtifactStore;
  /** The query tool exactly as tools/list shows it. */
  readonly queryTool: Tool;
  /** The descriptor template as resources/templates/list shows it. */
  readonly descriptorTemplate: ResourceTemplate;
  /**
   * Bounds one tool result: the same object when it fits inlineBytes, else the envelope (or a
   * bounded error). Pass the handler's `extra` as context so the artifact is bound to the caller.
   */
  boundResult: BoundResult;
  /** Answers a query_response_artifact call (for code that routes tools/call itself). */
  callQueryTool: QueryHandler;
  /** Answers a resources/read of `artifact://<namespace>/<id>`; throws McpError -32002 otherwise. */
  readDescriptor: DescriptorReader;
  /**
   * Registers the query tool and the descriptor template on a low-level `Server` (call it right
   * after `new Server(...)`, before registering handlers) or on an `McpServer`.
   */
  attach(server: Server | McpServer): void;
  /**
   * The adapter's answers for one connection of code that owns its `Server` and routes requests
   * itself, as plain calls (the relay: advertiseTools, runToolCall, advertiseResourceTemplates,
   * readResource). Open one per downstream connection; it remembers the tools it advertised.
   */
  openSession(options: OpenSessionOptions): AdapterSession;
  /** Counters per tool: calls, bounded calls, bytes in and out, queries, parse-cache hits. */
  stats(): StatsSnapshot;
  /** Releases the store (timers, connections) and the parse cache. */
  dispose(): Promise<void>;
}

function isMcpServer(server: Server | McpServer): server is McpServer {
  return typeof (server as McpServer).registerTool === "function";
}

/**
 * Creates the bounded-MCP adapter a server author embeds. Settings are resolved once, here (or
 * were by the app, `resolvedSettings`): an invalid value or two disagreeing variables throw a
 * SettingsError naming them. Without configured keys a random per-process key ring is used, with
 * one warning.
 */
export function createBoundedMcp(options: BoundedMcpOptions = {}): BoundedMcp {
  // What is not one of these is a setting; resolveSettings refuses a name that is neither.
  const {
    resolvedSettings,
    artifactStore,
    scope,
    preview,
    redact,
    queryToolNote,
    logger: givenLogger,
    clock: givenClock,
    queryClock,
    environment,
    tools,
    principals = "one",
    ...settingOptions
  } = options;
  const logger = givenLogger ?? SILENT_LOGGER;
  const clock = givenClock ?? Date.now;
  const settings =
    resolvedSettings ??
    resolveSettings({
      options: settingOptions,
      environment: environment ?? process.env,
      logger,
    });
  const { limits, namespace, keyRing } = settings;
  const store = artifactStore ?? createStoreFromSettings(settings, clock, logger, principals);
  // Bounded by the parsed documents' estimated heap, not their text (see estimateHeapBytes).
  const cache = createParseCache<OpenArtifact>({
    maxBytes: settings.parseCacheBytes,
    weigh: (artifact) => estimateHeapBytes(artifact.document),
  });
  const artifacts = createArtifactService({ store, cache, ttlMs: limits.ttlMs, clock, logger });
  const findScope = createScopeFinder({ keyRing, namespace, resolver: scope });
  const stats = createStatsCollector();
  const boundResult = createBounder({
    artifacts,
    keyRing,
    findScope,
    limits,
    mediaBytes: settings.mediaBytes,
    artifactUri: settings.resourceLinks ? (id) => formatArtifactUri(namespace, id) : undefined,
    preview,
    redact,
    ephemeralStore: !store.capabilities.persistent,
    logger,
    stats,
  });
  const callQueryTool = createQueryHandler({
    artifacts,
    viewCache: createViewCache({ maxBytes: settings.viewCacheBytes }),
    keyRing,
    findScope,
    limits,
    logger,
    stats,
    maxQueriesPerPrincipal:
      settings.maxQueriesPerPrincipal ?? defaultMaxQueriesPerPrincipal(principals),
    ...(queryClock === undefined ? {} : { now: queryClock }),
  });
  const readDescriptor = createDescriptorReader({ namespace, artifacts, findScope, keyRing });
  const queryTool = createQueryToolDefinition({
    ttlMs: limits.ttlMs,
    ephemeralStore: !store.capabilities.persistent,
    ...(queryToolNote === undefined ? {} : { descriptionNote: queryToolNote }),
  });
  const descriptorTemplate: ResourceTemplate = {
    name: "artifact-descriptor",
    title: "Stored tool result descriptor",
    uriTemplate: artifactUriTemplate(namespace),
    description: `What an oversized tool result was stored as (size, media type, expiry, paths to query); never its content. Read values with ${QUERY_TOOL_NAME}.`,
    mimeType: "application/json",
  };
  const parts: AttachParts = {
    queryTool,
    callQueryTool,
    descriptorTemplate,
    parseUri: (uri) => parseArtifactUri(namespace, uri),
    readDescriptor,
    boundResult,
    passSmallResult: createSmallResultPass(limits.inlineBytes, stats),
    logger,
    createPipeline: () =>
      createToolPipeline(
        createOutputSchemaPolicy({
          includeOutputSchema: settings.includeOutputSchema,
          includeStructuredContent: settings.includeStructuredContent,
          ...(tools === undefined ? {} : { tools }),
          logger,
        }),
      ),
  };
  return {
    settings,
    store,
    queryTool,
    descriptorTemplate,
    boundResult,
    callQueryTool,
    readDescriptor,
    attach(server) {
      if (isMcpServer(server)) attachToMcpServer(server, parts);
      else attachToServer(server, parts);
    },
    openSession: (sessionOptions) => openSession(parts, sessionOptions),
    stats: () => stats.snapshot(),
    async dispose() {
      cache.clear();
      await store.dispose();
    },
  };
}
