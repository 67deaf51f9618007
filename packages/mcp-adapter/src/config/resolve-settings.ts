import { randomBytes as cryptoRandomBytes } from "node:crypto";
import { DEFAULT_LIMITS, type Limits } from "@bounded-mcp/contract";
import { createKeyRing, type KeyRing, KeyRingError, parseKeyRing } from "@bounded-mcp/query-core";
import type { z } from "zod";
import { type Logger, SILENT_LOGGER } from "../logging/logger.js";
import { ENVIRONMENT_SETTINGS, type EnvironmentSetting } from "./environment-names.js";
import { SettingsError, type SettingsIssue } from "./settings-error.js";
import {
  DEFAULT_NAMESPACE,
  DEFAULT_PARSE_CACHE_BYTES,
  type SettingsData,
  SettingsDataSchema,
  STORE_KINDS,
  type StoreKind,
  type StoreSettings,
} from "./settings-schema.js";

/** Settings given in code. Each one set here wins over the environment. */
export interface SettingsOptions {
  /** Any of the contract limits (DEFAULT_LIMITS names); the rest keep their defaults. */
  limits?: Partial<Limits>;
  /** Byte quota of the artifact store; null or absent for none. */
  quotaBytes?: number | null;
  /** Byte budget of the parse cache (serialized bytes of the cached artifacts). */
  parseCacheBytes?: number;
  /** The store kind; by default `fs` when storeDir is set, `s3` when s3.bucket is, else `memory`. */
  store?: StoreKind;
  storeDir?: string;
  s3?: { bucket?: string; prefix?: string; endpoint?: string; region?: string };
  /** Authority of descriptor URIs: `artifact://<namespace>/<id>`. */
  namespace?: string;
  /** Add a resource_link block to bounded results (default true). */
  resourceLinks?: boolean;
  /** Default for tools that advertise an outputSchema: keep advertising it, rewritten (default true). */
  includeOutputSchema?: boolean;
  /** Default for results: keep structuredContent (default true; forced on by includeOutputSchema). */
  includeStructuredContent?: boolean;
  /** A key ring, or its text in the BOUNDED_MCP_KEYS format. */
  keys?: string | KeyRing;
}

/** Everything the adapter is configured with, validated. */
export interface AdapterSettings extends SettingsData {
  /** Signs cursors and derives artifact ids and the stdio scope. */
  keyRing: KeyRing;
  /** Where the key ring came from; `random` means per process (ids and cursors die with it). */
  keyRingSource: "options" | "environment" | "random";
}

/** What resolveSettings reads. */
export interface ResolveSettingsInput {
  options?: SettingsOptions;
  /** Defaults to process.env. Empty values count as unset. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Receives the one warning about a random key ring. Default: silent. */
  logger?: Logger;
  /** Source of the random key when none is configured (tests inject it). Default: node:crypto. */
  randomBytes?: (size: number) => Uint8Array;
}

interface RawValue {
  value: unknown;
  /** `options.limits.inlineBytes` or the environment name that gave the value. */
  label: string;
  secret: boolean;
}

type RawSettings = Map<string, RawValue>;

const SETTING_PATHS = Object.keys(ENVIRONMENT_SETTINGS) as (keyof typeof ENVIRONMENT_SETTINGS)[];
const OPTION_KEYS = new Set([
  "limits",
  "quotaBytes",
  "parseCacheBytes",
  "store",
  "storeDir",
  "s3",
  "namespace",
  "resourceLinks",
  "includeOutputSchema",
  "includeStructuredContent",
  "keys",
]);

const S3_OPTION_KEYS = ["bucket", "prefix", "endpoint", "region"];

let processKeyRing: KeyRing | undefined;

/**
 * Builds the one settings object from options, then the environment (BOUNDED_MCP_* and the
 * n8n-mcp pull request's MCP_RESPONSE_* names), then DEFAULT_LIMITS. Call it once at start:
 * anything unusable (a value that does not parse, two environment names that disagree, values
 * that contradict each other, a bad key ring) throws one SettingsError listing every problem by
 * variable name. Without configured keys a random per-process key ring is used and one warning
 * is logged, because ids and cursors then die with the process and differ between replicas.
 */
export function resolveSettings(input: ResolveSettingsInput = {}): AdapterSettings {
  const issues: SettingsIssue[] = [];
  const raw = readEnvironment(input.environment ?? process.env, issues);
  readOptions(input.options ?? {}, raw, issues);
  const store = resolveStore(raw, issues);
  const candidate = buildCandidate(raw, store);
  const parsed = SettingsDataSchema.safeParse(candidate);
  if (!parsed.success) issues.push(...toIssues(parsed.error.issues, raw));
  const keyRing = resolveKeyRing(raw, issues, input.randomBytes);
  if (issues.length > 0 || !parsed.success || keyRing === null) throw new SettingsError(issues);
  if (keyRing.source === "random") {
    (input.logger ?? SILENT_LOGGER).warn(
      "BOUNDED_MCP_KEYS is not set: using a random key for this process, so artifact ids and cursors stop working after a restart and differ between replicas",
      { setting: "BOUNDED_MCP_KEYS" },
    );
  }
  return { ...parsed.data, keyRing: keyRing.ring, keyRingSource: keyRing.source };
}

function readEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  issues: SettingsIssue[],
): RawSettings {
  const raw: RawSettings = new Map();
  for (const path of SETTING_PATHS) {
    const setting: EnvironmentSetting = ENVIRONMENT_SETTINGS[path];
    const secret = setting.secret === true;
    const found: { name: string; text: string; value: unknown }[] = [];
    for (const name of setting.names) {
      const text = environment[name];
      if (text === undefined || text.trim() === "") continue;
      const parsed = setting.parse(text);
      if (!parsed.ok) {
        const shown = secret ? "" : `=${JSON.stringify(text)}`;
        issues.push({ names: [name], message: `${name}${shown} is not ${parsed.expected}` });
        continue;
      }
      found.push({ name, text, value: parsed.value });
    }
    const first = found[0];
    if (first === undefined) continue;
    const disagreeing = found.filter((entry) => entry.value !== first.value);
    if (disagreeing.length > 0) {
      const names = found.map((entry) => entry.name);
      const listed = secret
        ? names.join(" and ")
        : found.map((entry) => `${entry.name}=${entry.text.trim()}`).join(" and ");
      issues.push({ names, message: `${listed} disagree: set only one of them` });
      continue;
    }
    raw.set(path, { value: first.value, label: first.name, secret });
  }
  return raw;
}

function readOptions(options: SettingsOptions, raw: RawSettings, issues: SettingsIssue[]): void {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      issues.push({ names: [`options.${key}`], message: `options.${key} is not a setting` });
    }
  }
  const set = (path: string, value: unknown): void => {
    if (value !== undefined) raw.set(path, { value, label: `options.${path}`, secret: false });
  };
  const nested = (group: "limits" | "s3", known: readonly string[], values: object | undefined) => {
    for (const [key, value] of Object.entries(values ?? {})) {
      if (known.includes(key)) set(`${group}.${key}`, value);
      else
        issues.push({
          names: [`options.${group}.${key}`],
          message: `options.${group}.${key} is not a setting`,
        });
    }
  };
  nested("limits", Object.keys(DEFAULT_LIMITS), options.limits);
  nested("s3", S3_OPTION_KEYS, options.s3);
  for (const key of OPTION_KEYS) {
    if (key === "limits" || key === "s3" || key === "keys") continue;
    set(key, options[key as keyof SettingsOptions]);
  }
  if (options.keys !== undefined) {
    raw.set("keys", { value: options.keys, label: "options.keys", secret: true });
  }
}

function rawValue(raw: RawSettings, path: string): unknown {
  return raw.get(path)?.value;
}

function resolveStore(raw: RawSettings, issues: SettingsIssue[]): StoreSettings | undefined {
  const kindValue = raw.get("store");
  const dir = raw.get("storeDir");
  const bucket = raw.get("s3.bucket");
  let kind: StoreKind;
  if (kindValue === undefined) {
    if (dir !== undefined && bucket !== undefined) {
      issues.push({
        names: [dir.label, bucket.label],
        message: `both ${dir.label} and ${bucket.label} are set: choose the store with BOUNDED_MCP_STORE`,
      });
      return undefined;
    }
    kind = dir !== undefined ? "fs" : bucket !== undefined ? "s3" : "memory";
  } else if (STORE_KINDS.includes(kindValue.value as StoreKind)) {
    kind = kindValue.value as StoreKind;
  } else {
    issues.push({
      names: [kindValue.label],
      message: `${kindValue.label}=${JSON.stringify(kindValue.value)} is not one of ${STORE_KINDS.join(", ")}`,
    });
    return undefined;
  }
  const label = kindValue?.label ?? "the store";
  if (kind === "fs") {
    if (dir === undefined) {
      issues.push({
        names: [label, "BOUNDED_MCP_STORE_DIR"],
        message: `${label}=fs needs a directory: set storeDir (BOUNDED_MCP_STORE_DIR or MCP_RESPONSE_ARTIFACT_ROOT)`,
      });
      return undefined;
    }
    return { kind, dir: dir.value as string };
  }
  const stray = kind === "memory" ? [dir, bucket] : [dir];
  for (const value of stray) {
    if (value === undefined) continue;
    issues.push({
      names: [value.label, label],
      message: `${value.label} is set but ${label} is ${kind}`,
    });
  }
  if (kind === "memory") return { kind };
  if (bucket === undefined) {
    issues.push({
      names: [label, "BOUNDED_MCP_S3_BUCKET"],
      message: `${label}=s3 needs a bucket: set s3.bucket (BOUNDED_MCP_S3_BUCKET)`,
    });
    return undefined;
  }
  return {
    kind,
    bucket: bucket.value as string,
    prefix: (rawValue(raw, "s3.prefix") as string | undefined) ?? "",
    endpoint: (rawValue(raw, "s3.endpoint") as string | undefined) ?? null,
    region: (rawValue(raw, "s3.region") as string | undefined) ?? null,
  };
}

function buildCandidate(raw: RawSettings, store: StoreSettings | undefined): unknown {
  const limits: Record<string, unknown> = { ...DEFAULT_LIMITS };
  for (const [path, entry] of raw) {
    if (path.startsWith("limits.")) limits[path.slice("limits.".length)] = entry.value;
  }
  const pick = (path: string, fallback: unknown): unknown => {
    const value = rawValue(raw, path);
    return value === undefined ? fallback : value;
  };
  return {
    limits,
    quotaBytes: pick("quotaBytes", null),
    parseCacheBytes: pick("parseCacheBytes", DEFAULT_PARSE_CACHE_BYTES),
    // A store that could not be resolved was already reported; a valid stand-in keeps the other
    // checks running so that every problem is listed at once.
    store: store ?? { kind: "memory" },
    namespace: pick("namespace", DEFAULT_NAMESPACE),
    resourceLinks: pick("resourceLinks", true),
    includeOutputSchema: pick("includeOutputSchema", true),
    includeStructuredContent: pick("includeStructuredContent", true),
  };
}

const STORE_FIELD_PATHS: Record<string, string> = {
  dir: "storeDir",
  bucket: "s3.bucket",
  prefix: "s3.prefix",
  endpoint: "s3.endpoint",
  region: "s3.region",
};

function settingPath(path: readonly PropertyKey[]): string {
  if (path[0] === "store" && typeof path[1] === "string") {
    return STORE_FIELD_PATHS[path[1]] ?? "store";
  }
  return path.map(String).join(".");
}

function describeValue(raw: RawSettings, path: string, candidate: unknown): string {
  const entry = raw.get(path);
  if (entry === undefined) return `${path} (default ${JSON.stringify(candidate)})`;
  return entry.secret ? entry.label : `${entry.label}=${JSON.stringify(entry.value)}`;
}

function relatedPaths(issue: z.core.$ZodIssue): string[] | undefined {
  return (issue as { params?: { paths?: string[] } }).params?.paths;
}

/** Field issues first; a relation between fields is dropped when one of them is already invalid. */
function toIssues(zodIssues: readonly z.core.$ZodIssue[], raw: RawSettings): SettingsIssue[] {
  const invalid = new Set(
    zodIssues.filter((issue) => relatedPaths(issue) === undefined).map((i) => settingPath(i.path)),
  );
  return zodIssues
    .filter((issue) => !(relatedPaths(issue) ?? []).some((path) => invalid.has(path)))
    .map((issue) => toIssue(issue, raw));
}

function toIssue(issue: z.core.$ZodIssue, raw: RawSettings): SettingsIssue {
  const paths = relatedPaths(issue) ?? [settingPath(issue.path)];
  const names = paths.map((path) => raw.get(path)?.label ?? path);
  const described = paths.map((path) => {
    const limit = path.startsWith("limits.")
      ? (DEFAULT_LIMITS as Record<string, number>)[path.slice("limits.".length)]
      : undefined;
    return describeValue(raw, path, limit);
  });
  return { names, message: `${issue.message} (${described.join(", ")})` };
}

type ResolvedKeyRing = { ring: KeyRing; source: AdapterSettings["keyRingSource"] };

function resolveKeyRing(
  raw: RawSettings,
  issues: SettingsIssue[],
  randomBytes: ((size: number) => Uint8Array) | undefined,
): ResolvedKeyRing | null {
  const entry = raw.get("keys");
  if (entry === undefined) {
    if (randomBytes !== undefined)
      return { ring: createRandomKeyRing(randomBytes), source: "random" };
    processKeyRing ??= createRandomKeyRing(cryptoRandomBytes);
    return { ring: processKeyRing, source: "random" };
  }
  const source = entry.label.startsWith("options.") ? "options" : "environment";
  if (isKeyRing(entry.value)) return { ring: entry.value, source };
  if (typeof entry.value !== "string") {
    issues.push({ names: [entry.label], message: `${entry.label} must be a key ring or its text` });
    return null;
  }
  try {
    return { ring: parseKeyRing(entry.value), source };
  } catch (error) {
    if (!KeyRingError.isInstance(error)) throw error;
    const reason = error.message.replace(/^BOUNDED_MCP_KEYS:?\s*/, "");
    issues.push({ names: [entry.label], message: `${entry.label} is not a key ring: ${reason}` });
    return null;
  }
}

function isKeyRing(value: unknown): value is KeyRing {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as KeyRing).mac === "function" &&
    typeof (value as KeyRing).signingKid === "string"
  );
}

function createRandomKeyRing(randomBytes: (size: number) => Uint8Array): KeyRing {
  return createKeyRing([{ secret: randomBytes(32) }]);
}
