import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import {
  DEFAULT_VIEW_CACHE_BYTES,
  type KeyRing,
  KeyRingError,
  parseKeyRing,
} from "@bounded-mcp/query-core";
import { z } from "zod";
import { defineSetting, type SettingKind } from "./setting.js";
import { SETTING_KINDS } from "./setting-kinds.js";
import { SETTING_RELATIONS } from "./setting-relations.js";

/** Where oversized results are kept: in memory, under a folder, or in an S3 bucket. */
export const STORE_KINDS = ["memory", "fs", "s3"] as const;
/** One of STORE_KINDS. */
export type StoreKind = (typeof STORE_KINDS)[number];

/** A namespace is the authority of an `artifact://` URI: lowercase letters, digits, `.`, `_`, `-`. */
const NAMESPACE_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;

function isKeyRing(value: unknown): value is KeyRing {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as KeyRing).mac === "function" &&
    typeof (value as KeyRing).signingKid === "string"
  );
}

/** The key ring: its text (`[kid:]secret,...`) or, in code, a ready KeyRing. Never echoed. */
const keyRingKind: SettingKind<KeyRing | null, string | KeyRing | null> = {
  schema: z.unknown().transform((input, context): KeyRing | null => {
    if (input === null || isKeyRing(input)) return input;
    if (typeof input !== "string") {
      context.addIssue({ code: "custom", message: "expected a key ring or its text" });
      return z.NEVER;
    }
    try {
      return parseKeyRing(input);
    } catch (error) {
      if (!KeyRingError.isInstance(error)) throw error;
      const reason = error.message.replace(/^BOUNDED_MCP_KEYS:?\s*/, "");
      context.addIssue({ code: "custom", message: `is not a key ring: ${reason}` });
      return z.NEVER;
    }
  }),
  argument: "<keys>",
  multiple: false,
  limits: [],
  show: () => "(secret)",
};

const { byteSize, duration, count, boolean, text, oneOf, url, nullable } = SETTING_KINDS;
const { compare, needs, onlyWith, custom } = SETTING_RELATIONS;
const isStore = (kind: StoreKind) => ({ text: kind, holds: (value: unknown) => value === kind });

/**
 * Every setting of the adapter, one row each: flag, environment variable, name (= config-file
 * key = code option), kind of value with its bounds, default, help line and the rules against
 * other rows. `resolveSettings`, both apps' command lines and `--help` are derived from it; to
 * add a setting, add a row (see the README's "Settings" section).
 */
export const ADAPTER_SETTINGS = Object.freeze({
  inlineBytes: defineSetting({
    flag: "inline-bytes",
    env: "BOUNDED_MCP_INLINE_BYTES",
    value: byteSize({ min: DEFAULT_LIMITS.maxErrorEnvelopeBytes }),
    default: DEFAULT_LIMITS.inlineBytes,
    help: "results up to this size pass through unchanged",
    relations: [
      compare("inlineBytes", "<=", "hardBytes", "as no answer's JSON is larger"),
      compare(
        "inlineBytes",
        "<=",
        "artifactMaxBytes",
        "else results in between could be neither inlined nor stored",
      ),
    ],
  }),
  previewBytes: defineSetting({
    flag: "preview-bytes",
    env: "BOUNDED_MCP_PREVIEW_BYTES",
    value: byteSize({ min: 1_024 }),
    default: DEFAULT_LIMITS.previewBytes,
    help: "size of the bounded envelope that replaces an oversized result",
    relations: [
      compare(
        "previewBytes",
        "<",
        "inlineBytes",
        "so that an envelope is smaller than what it replaces",
      ),
    ],
  }),
  hardBytes: defineSetting({
    flag: "hard-bytes",
    env: "BOUNDED_MCP_HARD_BYTES",
    value: byteSize({ min: 1 }),
    default: DEFAULT_LIMITS.hardBytes,
    help: "ceiling of inlineBytes and of an answer's JSON (its text block repeats it; media excluded)",
  }),
  artifactMaxBytes: defineSetting({
    flag: "artifact-max-bytes",
    env: "BOUNDED_MCP_ARTIFACT_MAX_BYTES",
    value: byteSize({ min: 1 }),
    default: DEFAULT_LIMITS.artifactMaxBytes,
    help: "larger results are refused with ARTIFACT_TOO_LARGE",
  }),
  mediaBytes: defineSetting({
    flag: "media-bytes",
    env: "BOUNDED_MCP_MEDIA_BYTES",
    value: byteSize({ min: 0 }),
    default: 5 * 1_024 * 1_024,
    help: "base64 bytes of image and audio blocks one result passes on; larger media are stored and linked",
  }),
  ttl: defineSetting({
    flag: "ttl",
    env: "BOUNDED_MCP_TTL",
    value: duration({ min: 1_000, max: 365 * 86_400_000 }),
    default: DEFAULT_LIMITS.ttlMs,
    help: "artifact lifetime, e.g. 30m or 24h (its cursors die with it)",
  }),
  pageSize: defineSetting({
    flag: "page-size",
    env: "BOUNDED_MCP_PAGE_SIZE",
    value: count({ min: DEFAULT_LIMITS.minPageSize, max: DEFAULT_LIMITS.maxPageSize }),
    default: DEFAULT_LIMITS.pageSize,
    help: "items per page when a query does not say",
  }),
  quotaBytes: defineSetting({
    flag: "quota-bytes",
    env: "BOUNDED_MCP_QUOTA_BYTES",
    value: nullable(byteSize({ min: 1 })),
    default: null,
    help: "byte quota of the artifact store",
    relations: [
      compare(
        "quotaBytes",
        ">=",
        "artifactMaxBytes",
        "else an accepted artifact could never be stored",
      ),
    ],
  }),
  parseCacheBytes: defineSetting({
    flag: "parse-cache-bytes",
    env: "BOUNDED_MCP_PARSE_CACHE_BYTES",
    value: byteSize({ min: 0 }),
    default: 256 * 1_024 * 1_024,
    help: "byte budget of the parse cache (the estimated heap of the parsed documents held)",
  }),
  viewCacheBytes: defineSetting({
    flag: "view-cache-bytes",
    env: "BOUNDED_MCP_VIEW_CACHE_BYTES",
    value: byteSize({ min: 0 }),
    default: DEFAULT_VIEW_CACHE_BYTES,
    help: "byte budget of the view cache (filtered, sorted and aggregated views; 0: none)",
  }),
  queryWorkMs: defineSetting({
    flag: "query-work-ms",
    env: "BOUNDED_MCP_QUERY_WORK_MS",
    value: duration({ min: 1, argument: "<ms>" }),
    default: 250,
    help: "longest scan of one textSearch; it then answers what it found, with a cursor",
  }),
  store: defineSetting({
    flag: "store",
    env: "BOUNDED_MCP_STORE",
    value: nullable(oneOf(STORE_KINDS)),
    default: null,
    defaultText: "fs with storeDir, s3 with s3Bucket, else memory",
    help: "where oversized results are kept: memory, fs or s3",
    relations: [
      needs("store", isStore("fs"), "storeDir", "the folder of the fs store"),
      needs("store", isStore("s3"), "s3Bucket", "the bucket of the s3 store"),
    ],
  }),
  storeDir: defineSetting({
    flag: "store-dir",
    env: "BOUNDED_MCP_STORE_DIR",
    value: nullable(text({ argument: "<dir>" })),
    default: null,
    help: "folder of the fs store",
    relations: [
      onlyWith("storeDir", "store", isStore("fs")),
      custom({
        rule: "storeDir with s3Bucket needs store",
        settings: ["storeDir", "s3Bucket", "store"],
        check: ({ values }) =>
          values.storeDir === null || values.s3Bucket === null || values.store !== null
            ? undefined
            : {
                setting: "storeDir",
                problem: (name) =>
                  `is set together with ${name("s3Bucket")}: choose the store with ${name("store")}`,
              },
      }),
    ],
  }),
  s3Bucket: defineSetting({
    flag: "s3-bucket",
    env: "BOUNDED_MCP_S3_BUCKET",
    value: nullable(text({ argument: "<name>" })),
    default: null,
    help: "bucket of the s3 store (it must exist)",
    relations: [onlyWith("s3Bucket", "store", isStore("s3"))],
  }),
  s3Prefix: defineSetting({
    flag: "s3-prefix",
    env: "BOUNDED_MCP_S3_PREFIX",
    value: nullable(text({ argument: "<prefix>" })),
    default: null,
    defaultText: "bounded-mcp/",
    help: "key prefix of the artifacts in the bucket",
  }),
  s3Endpoint: defineSetting({
    flag: "s3-endpoint",
    env: "BOUNDED_MCP_S3_ENDPOINT",
    value: nullable(url()),
    default: null,
    defaultText: "AWS",
    help: "S3-compatible endpoint URL (MinIO, R2, ...)",
  }),
  s3Region: defineSetting({
    flag: "s3-region",
    env: "BOUNDED_MCP_S3_REGION",
    value: nullable(text({ argument: "<region>" })),
    default: null,
    defaultText: "the AWS SDK's",
    help: "S3 region",
  }),
  s3ForcePathStyle: defineSetting({
    flag: "s3-force-path-style",
    env: "BOUNDED_MCP_S3_FORCE_PATH_STYLE",
    value: nullable(boolean()),
    default: null,
    defaultText: "on with s3Endpoint",
    help: "path-style bucket URLs (endpoint/bucket/key), as MinIO and s3rver need",
  }),
  namespace: defineSetting({
    flag: "namespace",
    env: "BOUNDED_MCP_NAMESPACE",
    value: text({
      argument: "<name>",
      pattern: NAMESPACE_PATTERN,
      message:
        "must be 1..63 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit",
    }),
    default: "bounded-mcp",
    help: "authority of descriptor URIs: artifact://<namespace>/<id>",
  }),
  resourceLinks: defineSetting({
    flag: "resource-links",
    env: "BOUNDED_MCP_RESOURCE_LINKS",
    value: boolean(),
    default: true,
    help: "add a resource_link block to bounded results",
  }),
  includeOutputSchema: defineSetting({
    flag: "include-output-schema",
    env: "BOUNDED_MCP_INCLUDE_OUTPUT_SCHEMA",
    value: boolean(),
    default: true,
    help: "keep tools' outputSchema (rewritten to admit the envelope)",
  }),
  includeStructuredContent: defineSetting({
    flag: "include-structured-content",
    env: "BOUNDED_MCP_INCLUDE_STRUCTURED_CONTENT",
    value: boolean(),
    default: true,
    help: "keep structuredContent in results (forced on by includeOutputSchema)",
  }),
  keys: defineSetting({
    flag: "keys",
    env: "BOUNDED_MCP_KEYS",
    value: keyRingKind,
    default: null,
    defaultText: "a random key per process (one warning)",
    secret: true,
    help: "key ring [kid:]secret,... (hex 64+ chars); prefer the variable, flags show in ps",
  }),
  quotaPerPrincipal: defineSetting({
    flag: "quota-per-principal",
    env: "BOUNDED_MCP_QUOTA_PER_PRINCIPAL",
    value: nullable(byteSize({ min: 1 })),
    default: null,
    defaultText: "many principals (HTTP): a quarter of the store's cap; one (stdio): all of it",
    help: "memory, fs: bytes one principal's artifacts may hold; larger results get ARTIFACT_TOO_LARGE",
  }),
  maxQueriesPerPrincipal: defineSetting({
    flag: "max-queries-per-principal",
    env: "BOUNDED_MCP_MAX_QUERIES_PER_PRINCIPAL",
    value: nullable(count({ min: 1 })),
    default: null,
    defaultText: "many principals (HTTP): 4; one (stdio): no limit",
    help: "queries of one principal answered at once; more wait their turn",
  }),
  s3Timeout: defineSetting({
    flag: "s3-timeout",
    env: "BOUNDED_MCP_S3_TIMEOUT",
    value: duration({ min: 1, argument: "<ms>" }),
    default: 10_000,
    help: "s3: deadline of one call, retries included (then ARTIFACT_STORE_UNAVAILABLE)",
  }),
  encryptAtRest: defineSetting({
    flag: "encrypt-at-rest",
    env: "BOUNDED_MCP_ENCRYPT_AT_REST",
    value: boolean(),
    default: false,
    help: "encrypt fs and s3 artifacts (AES-256-GCM, keys derived from the key ring)",
  }),
});

/** The adapter's settings table. */
export type AdapterSettingsTable = typeof ADAPTER_SETTINGS;
