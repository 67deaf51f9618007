import {
  type ParsedValue,
  parseBoolean,
  parseByteSize,
  parseDuration,
  parseInteger,
  parseText,
} from "./setting-values.js";

/** How one setting is read from the environment: its names (first is canonical) and parser. */
export interface EnvironmentSetting {
  /** Every environment name of the setting; when several are set they must agree. */
  names: readonly string[];
  parse: (text: string) => ParsedValue<unknown>;
  /** True when the value is a secret: messages then never repeat it. */
  secret?: boolean;
}

/**
 * Every setting the environment can give, keyed by its path in the settings object. The
 * `MCP_RESPONSE_*` names are those of the n8n-mcp pull request "bound tool responses with
 * queryable artifacts", so an n8n-mcp deployment keeps its configuration.
 */
export const ENVIRONMENT_SETTINGS = {
  "limits.inlineBytes": {
    names: ["BOUNDED_MCP_INLINE_BYTES", "MCP_RESPONSE_INLINE_BYTES"],
    parse: parseByteSize,
  },
  "limits.previewBytes": {
    names: ["BOUNDED_MCP_PREVIEW_BYTES", "MCP_RESPONSE_PREVIEW_BYTES"],
    parse: parseByteSize,
  },
  "limits.hardBytes": {
    names: ["BOUNDED_MCP_HARD_BYTES", "MCP_RESPONSE_HARD_BYTES"],
    parse: parseByteSize,
  },
  "limits.artifactMaxBytes": {
    names: ["BOUNDED_MCP_ARTIFACT_MAX_BYTES", "MCP_RESPONSE_ARTIFACT_MAX_BYTES"],
    parse: parseByteSize,
  },
  "limits.ttlMs": {
    names: ["BOUNDED_MCP_TTL", "MCP_RESPONSE_ARTIFACT_TTL_MS"],
    parse: parseDuration,
  },
  "limits.pageSize": { names: ["BOUNDED_MCP_PAGE_SIZE"], parse: parseInteger },
  quotaBytes: {
    names: ["BOUNDED_MCP_QUOTA_BYTES", "MCP_RESPONSE_ARTIFACT_QUOTA_BYTES"],
    parse: parseByteSize,
  },
  parseCacheBytes: { names: ["BOUNDED_MCP_PARSE_CACHE_BYTES"], parse: parseByteSize },
  store: { names: ["BOUNDED_MCP_STORE"], parse: parseText },
  storeDir: { names: ["BOUNDED_MCP_STORE_DIR", "MCP_RESPONSE_ARTIFACT_ROOT"], parse: parseText },
  "s3.bucket": { names: ["BOUNDED_MCP_S3_BUCKET"], parse: parseText },
  "s3.prefix": { names: ["BOUNDED_MCP_S3_PREFIX"], parse: parseText },
  "s3.endpoint": { names: ["BOUNDED_MCP_S3_ENDPOINT"], parse: parseText },
  "s3.region": { names: ["BOUNDED_MCP_S3_REGION"], parse: parseText },
  namespace: { names: ["BOUNDED_MCP_NAMESPACE"], parse: parseText },
  resourceLinks: { names: ["BOUNDED_MCP_RESOURCE_LINKS"], parse: parseBoolean },
  includeOutputSchema: { names: ["BOUNDED_MCP_INCLUDE_OUTPUT_SCHEMA"], parse: parseBoolean },
  includeStructuredContent: {
    names: ["BOUNDED_MCP_INCLUDE_STRUCTURED_CONTENT"],
    parse: parseBoolean,
  },
  keys: {
    names: ["BOUNDED_MCP_KEYS", "MCP_RESPONSE_CURSOR_KEY"],
    parse: parseText,
    secret: true,
  },
} as const satisfies Record<string, EnvironmentSetting>;

/** A settings path the environment can set. */
export type EnvironmentSettingPath = keyof typeof ENVIRONMENT_SETTINGS;

/** Every environment name the adapter reads, for documentation and `--help` output. */
export const ENVIRONMENT_NAMES: readonly string[] = Object.freeze(
  Object.values(ENVIRONMENT_SETTINGS).flatMap((setting) => [...setting.names]),
);
