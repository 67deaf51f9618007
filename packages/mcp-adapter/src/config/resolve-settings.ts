import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { DEFAULT_LIMITS, type Limits } from "@bounded-mcp/contract";
import { createKeyRing, type KeyRing } from "@bounded-mcp/query-core";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { ADAPTER_SETTINGS, type AdapterSettingsTable } from "./adapter-settings.js";
import { readSettings, type SettingsLayers } from "./read-settings.js";
import type { SettingInputs, SettingsTable, SettingValues } from "./setting.js";
import { labelOf } from "./setting-source.js";
import { SettingsError } from "./settings-error.js";

/** Settings given in code, by their table names (`inlineBytes`, `ttl`, `storeDir`, `keys`, ...). */
export type SettingsOptions = SettingInputs<AdapterSettingsTable>;

/** The artifact store to create, as the settings say. */
export type StoreSettings =
  | { kind: "memory" }
  | { kind: "fs"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      /** null: the store's own default prefix. */
      prefix: string | null;
      endpoint: string | null;
      region: string | null;
      /** Path-style URLs: as set, else on exactly when an endpoint is set. */
      forcePathStyle: boolean;
      /** Deadline of one S3 call, retries included, in milliseconds. */
      timeoutMs: number;
    };

/** Everything the adapter is configured with, validated. */
export interface AdapterSettings {
  /** The contract limits, with the configured ones (inlineBytes, ..., ttlMs, pageSize) applied. */
  limits: Limits;
  quotaBytes: number | null;
  /** Bytes one principal's artifacts may hold (memory, fs); null: the default for the principals. */
  quotaPerPrincipal: number | null;
  /** Queries of one principal answered at once; null: the default for the principals. */
  maxQueriesPerPrincipal: number | null;
  parseCacheBytes: number;
  /** Byte budget of query-core's view cache (later pages of a view cost only the page). */
  viewCacheBytes: number;
  /**
   * Base64 characters of image and audio blocks one result passes on as received (SPEC.md §2
   * "Media"); media past it are stored and linked.
   */
  mediaBytes: number;
  /** Longest scan of one textSearch, in milliseconds. */
  queryWorkMs: number;
  store: StoreSettings;
  namespace: string;
  resourceLinks: boolean;
  includeOutputSchema: boolean;
  includeStructuredContent: boolean;
  /**
   * Seal fs and s3 artifacts with AES-256-GCM under keys derived from `keyRing` (the memory
   * store keeps its artifacts in this process and is not wrapped). Default false.
   */
  encryptAtRest: boolean;
  /** Signs cursors and derives artifact ids and the stdio scope. */
  keyRing: KeyRing;
  /** Where the key ring came from; `random` means per process (ids and cursors die with it). */
  keyRingSource: "options" | "environment" | "flag" | "file" | "random";
}

/** A warning settings produce (the random key ring); apps log it once their logger exists. */
export interface SettingsWarning {
  message: string;
  setting: string;
}

/** What resolveSettings reads: the layers (highest first) and the injected parts. */
export interface ResolveSettingsInput extends Omit<SettingsLayers, "options"> {
  /** Settings given in code; each wins over every other layer. */
  options?: SettingsOptions;
  /** Defaults to process.env. Empty values count as unset. */
  environment?: SettingsLayers["environment"];
  /** Receives the one warning about a random key ring. Default: silent. */
  logger?: Logger;
  /** Source of the random key when none is configured (tests inject it). Default: node:crypto. */
  randomBytes?: (size: number) => Uint8Array;
}

/** The adapter's settings and the values of an app's own rows, from one reading. */
export interface ResolvedSettings<Table extends SettingsTable> {
  settings: AdapterSettings;
  values: SettingValues<Table>;
  /**
   * Each setting of the app's rows named as the user gave it (`--upstream-url`,
   * `BOUNDED_MCP_UPSTREAM_URL`, `"upstreamUrl" in /c.json`), or by its flag when not given: for
   * the app's own messages about these values.
   */
  labels: Record<keyof Table, string>;
  warnings: SettingsWarning[];
}

let processKeyRing: KeyRing | undefined;

const RANDOM_KEY_WARNING: SettingsWarning = {
  message:
    "BOUNDED_MCP_KEYS is not set: using a random key for this process, so artifact ids and cursors stop working after a restart and differ between replicas",
  setting: "BOUNDED_MCP_KEYS",
};

function storeOf(values: SettingValues<AdapterSettingsTable>): StoreSettings {
  const kind = values.store ?? (values.storeDir ? "fs" : values.s3Bucket ? "s3" : "memory");
  if (kind === "fs") return { kind, dir: values.storeDir ?? "" };
  if (kind === "memory") return { kind };
  return {
    kind,
    bucket: values.s3Bucket ?? "",
    prefix: values.s3Prefix,
    endpoint: values.s3Endpoint,
    region: values.s3Region,
    forcePathStyle: values.s3ForcePathStyle ?? values.s3Endpoint !== null,
    timeoutMs: values.s3Timeout,
  };
}

function keyRingOf(
  values: SettingValues<AdapterSettingsTable>,
  source: AdapterSettings["keyRingSource"] | "default",
  randomBytes: ((size: number) => Uint8Array) | undefined,
): Pick<AdapterSettings, "keyRing" | "keyRingSource"> {
  if (values.keys !== null && source !== "default") {
    return { keyRing: values.keys, keyRingSource: source };
  }
  if (randomBytes !== undefined) {
    return { keyRing: createKeyRing([{ secret: randomBytes(32) }]), keyRingSource: "random" };
  }
  processKeyRing ??= createKeyRing([{ secret: cryptoRandomBytes(32) }]);
  return { keyRing: processKeyRing, keyRingSource: "random" };
}

const KEY_SOURCES = {
  options: "options",
  flag: "flag",
  environment: "environment",
  file: "file",
  default: "default",
} as const;

/**
 * Reads the adapter's settings plus an app's own rows (`extra`, e.g. the proxy's `--listen`) in
 * one pass over the layers (code options, flags, environment, file, defaults), so one
 * SettingsError lists every problem, each named by the source the user used. Without configured
 * keys a random per-process key ring is used and a warning is returned (not logged: an app's
 * logger may depend on these very settings).
 */
export function resolveSettingsWith<Extra extends SettingsTable>(
  extra: Extra,
  input: ResolveSettingsInput & { table?: AdapterSettingsTable },
): ResolvedSettings<Extra> {
  const table = { ...(input.table ?? ADAPTER_SETTINGS), ...extra };
  const reading = readSettings(table, {
    ...input,
    environment: input.environment ?? process.env,
  });
  if (reading.issues.length > 0) throw new SettingsError(reading.issues);
  const values = reading.values as SettingValues<AdapterSettingsTable>;
  const keys = keyRingOf(values, KEY_SOURCES[reading.sources.keys.kind], input.randomBytes);
  const settings: AdapterSettings = {
    limits: {
      ...DEFAULT_LIMITS,
      inlineBytes: values.inlineBytes,
      previewBytes: values.previewBytes,
      hardBytes: values.hardBytes,
      artifactMaxBytes: values.artifactMaxBytes,
      ttlMs: values.ttl,
      pageSize: values.pageSize,
      queryWorkMs: values.queryWorkMs,
    },
    quotaBytes: values.quotaBytes,
    quotaPerPrincipal: values.quotaPerPrincipal,
    maxQueriesPerPrincipal: values.maxQueriesPerPrincipal,
    parseCacheBytes: values.parseCacheBytes,
    viewCacheBytes: values.viewCacheBytes,
    mediaBytes: values.mediaBytes,
    queryWorkMs: values.queryWorkMs,
    store: storeOf(values),
    namespace: values.namespace,
    resourceLinks: values.resourceLinks,
    includeOutputSchema: values.includeOutputSchema,
    includeStructuredContent: values.includeStructuredContent,
    encryptAtRest: values.encryptAtRest,
    ...keys,
  };
  const warnings = keys.keyRingSource === "random" ? [RANDOM_KEY_WARNING] : [];
  const labels: Record<string, string> = {};
  for (const [name, setting] of Object.entries(extra)) {
    const source = reading.sources[name] ?? { kind: "default" };
    labels[name] = source.kind === "default" ? `--${setting.flag}` : labelOf(source, name, setting);
  }
  return {
    settings,
    values: reading.values as SettingValues<Extra>,
    labels: labels as Record<keyof Extra, string>,
    warnings,
  };
}

/**
 * Builds the one settings object from code options, then the environment (BOUNDED_MCP_*), then
 * the defaults. Call it once at start: anything unusable (a value that does not parse or breaks
 * its bounds, two names that disagree, values that contradict each other, a bad key ring) throws
 * one SettingsError listing every problem by the name the user used. Without configured keys a
 * random per-process key ring is used and one warning is logged, because ids and cursors then
 * die with the process and differ between replicas.
 */
export function resolveSettings(input: ResolveSettingsInput = {}): AdapterSettings {
  const { settings, warnings } = resolveSettingsWith({}, input);
  for (const warning of warnings) {
    (input.logger ?? SILENT_LOGGER).warn(warning.message, { setting: warning.setting });
  }
  return settings;
}
