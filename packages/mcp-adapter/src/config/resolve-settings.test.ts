import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { createKeyRing } from "@bounded-mcp/query-core";
import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../testing/recording-logger.js";
import {
  type ResolveSettingsInput,
  resolveSettings,
  resolveSettingsWith,
} from "./resolve-settings.js";
import { defineSetting } from "./setting.js";
import { SETTING_KINDS } from "./setting-kinds.js";
import { SettingsError } from "./settings-error.js";

const HEX_KEY = "ab".repeat(32);
const OTHER_HEX_KEY = "cd".repeat(32);
const fixedBytes = (size: number): Uint8Array => new Uint8Array(size).fill(7);

function refusal(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    if (SettingsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a SettingsError");
}

/** The messages of the refusal of these inputs. */
function problems(input: ResolveSettingsInput): string[] {
  return refusal(() => resolveSettings({ environment: {}, ...input })).issues.map(
    (issue) => issue.message,
  );
}

describe("resolveSettings defaults", () => {
  it("uses DEFAULT_LIMITS, a memory store and a random key with exactly one warning", () => {
    const logger = createRecordingLogger();
    const { keyRing, ...settings } = resolveSettings({
      environment: {},
      logger,
      randomBytes: fixedBytes,
    });
    expect(settings).toEqual({
      limits: { ...DEFAULT_LIMITS },
      quotaBytes: null,
      quotaPerPrincipal: null,
      maxQueriesPerPrincipal: null,
      parseCacheBytes: 256 * 1024 * 1024,
      viewCacheBytes: 64 * 1024 * 1024,
      mediaBytes: 5 * 1024 * 1024,
      queryWorkMs: 250,
      store: { kind: "memory" },
      namespace: "bounded-mcp",
      resourceLinks: true,
      includeOutputSchema: true,
      includeStructuredContent: true,
      encryptAtRest: false,
      keyRingSource: "random",
    });
    expect(keyRing.kids).toEqual(createKeyRing([{ secret: fixedBytes(32) }]).kids);
    expect(logger.records).toEqual([
      {
        level: "warn",
        message:
          "BOUNDED_MCP_KEYS is not set: using a random key for this process, so artifact ids and cursors stop working after a restart and differ between replicas",
        fields: { setting: "BOUNDED_MCP_KEYS" },
      },
    ]);
  });

  it("shares one random key per process between servers", () => {
    const first = resolveSettings({ environment: {} }).keyRing;
    const second = resolveSettings({ environment: {} }).keyRing;
    expect(second).toBe(first);
  });
});

describe("resolveSettings from the environment", () => {
  it("reads every BOUNDED_MCP_* name, with units for bytes and durations", () => {
    const logger = createRecordingLogger();
    const { keyRing, ...settings } = resolveSettings({
      logger,
      environment: {
        BOUNDED_MCP_INLINE_BYTES: "64KiB",
        BOUNDED_MCP_PREVIEW_BYTES: "4096",
        BOUNDED_MCP_HARD_BYTES: "1MiB",
        BOUNDED_MCP_ARTIFACT_MAX_BYTES: "200MB",
        BOUNDED_MCP_TTL: "30m",
        BOUNDED_MCP_PAGE_SIZE: "50",
        BOUNDED_MCP_QUOTA_BYTES: "1GiB",
        BOUNDED_MCP_PARSE_CACHE_BYTES: "0",
        BOUNDED_MCP_MEDIA_BYTES: "1MiB",
        BOUNDED_MCP_QUERY_WORK_MS: "1s",
        BOUNDED_MCP_STORE_DIR: "/var/lib/bounded",
        BOUNDED_MCP_NAMESPACE: "n8n",
        BOUNDED_MCP_RESOURCE_LINKS: "off",
        BOUNDED_MCP_INCLUDE_OUTPUT_SCHEMA: "false",
        BOUNDED_MCP_INCLUDE_STRUCTURED_CONTENT: "no",
        BOUNDED_MCP_ENCRYPT_AT_REST: "on",
        BOUNDED_MCP_KEYS: `k1:${HEX_KEY}`,
        BOUNDED_MCP_QUOTA_PER_PRINCIPAL: "64MiB",
        BOUNDED_MCP_MAX_QUERIES_PER_PRINCIPAL: "2",
      },
    });
    expect(settings).toEqual({
      limits: {
        ...DEFAULT_LIMITS,
        inlineBytes: 65_536,
        previewBytes: 4_096,
        hardBytes: 1_048_576,
        artifactMaxBytes: 200_000_000,
        ttlMs: 1_800_000,
        pageSize: 50,
        queryWorkMs: 1_000,
      },
      quotaBytes: 1_073_741_824,
      quotaPerPrincipal: 64 * 1_048_576,
      maxQueriesPerPrincipal: 2,
      parseCacheBytes: 0,
      viewCacheBytes: 64 * 1024 * 1024,
      mediaBytes: 1_048_576,
      queryWorkMs: 1_000,
      store: { kind: "fs", dir: "/var/lib/bounded" },
      namespace: "n8n",
      resourceLinks: false,
      includeOutputSchema: false,
      includeStructuredContent: false,
      encryptAtRest: true,
      keyRingSource: "environment",
    });
    expect(keyRing.kids).toEqual(["k1"]);
    expect(logger.records).toEqual([]);
  });

  it("reads an app's older names (aliases) and accepts two names that agree, even when written differently", () => {
    const settings = resolveSettings({
      aliases: { ttl: ["OLD_TTL_MS"], inlineBytes: ["OLD_INLINE_BYTES"] },
      environment: {
        BOUNDED_MCP_TTL: "1h",
        OLD_TTL_MS: "3600000",
        OLD_INLINE_BYTES: "32KiB",
        BOUNDED_MCP_KEYS: HEX_KEY,
      },
    });
    expect(settings.limits.ttlMs).toBe(3_600_000);
    expect(settings.limits.inlineBytes).toBe(32_768);
  });

  it("treats an empty value as unset", () => {
    const settings = resolveSettings({
      environment: { BOUNDED_MCP_INLINE_BYTES: "", BOUNDED_MCP_KEYS: "  ", BOUNDED_MCP_STORE: "" },
      randomBytes: fixedBytes,
    });
    expect(settings.limits.inlineBytes).toBe(DEFAULT_LIMITS.inlineBytes);
    expect(settings.store).toEqual({ kind: "memory" });
    expect(settings.keyRingSource).toBe("random");
  });

  it("chooses an S3 store from its bucket, path-style exactly when an endpoint is set unless told", () => {
    const s3 = (environment: Record<string, string>) =>
      resolveSettings({ environment: { BOUNDED_MCP_KEYS: HEX_KEY, ...environment } }).store;
    expect(
      s3({
        BOUNDED_MCP_S3_BUCKET: "artifacts",
        BOUNDED_MCP_S3_PREFIX: "prod/",
        BOUNDED_MCP_S3_ENDPOINT: "http://127.0.0.1:4569",
      }),
    ).toEqual({
      kind: "s3",
      bucket: "artifacts",
      prefix: "prod/",
      endpoint: "http://127.0.0.1:4569",
      region: null,
      forcePathStyle: true,
      timeoutMs: 10_000,
    });
    expect(
      s3({
        BOUNDED_MCP_S3_BUCKET: "b",
        BOUNDED_MCP_S3_REGION: "eu-west-1",
        BOUNDED_MCP_S3_TIMEOUT: "2s",
      }),
    ).toEqual({
      kind: "s3",
      bucket: "b",
      prefix: null,
      endpoint: null,
      region: "eu-west-1",
      forcePathStyle: false,
      timeoutMs: 2_000,
    });
    expect(
      s3({
        BOUNDED_MCP_S3_BUCKET: "b",
        BOUNDED_MCP_S3_ENDPOINT: "https://r2.example.com",
        BOUNDED_MCP_S3_FORCE_PATH_STYLE: "false",
      }),
    ).toMatchObject({ forcePathStyle: false });
  });
});

describe("resolveSettings layers", () => {
  it("lets options win over the environment and accepts a ready key ring", () => {
    const keyRing = createKeyRing([{ kid: "code", secret: fixedBytes(32) }]);
    const settings = resolveSettings({
      environment: { BOUNDED_MCP_INLINE_BYTES: "20000", BOUNDED_MCP_KEYS: HEX_KEY },
      options: { inlineBytes: 40_000, keys: keyRing, namespace: "mine" },
    });
    expect(settings.limits.inlineBytes).toBe(40_000);
    expect(settings.keyRing).toBe(keyRing);
    expect(settings.keyRingSource).toBe("options");
    expect(settings.namespace).toBe("mine");
  });

  it("resolves flags over the environment over the file over the defaults, once", () => {
    const { settings } = resolveSettingsWith(
      {},
      {
        flags: { inlineBytes: "48KiB" },
        environment: { BOUNDED_MCP_INLINE_BYTES: "40000", BOUNDED_MCP_TTL: "30m" },
        file: {
          path: "/c.json",
          values: { inlineBytes: 1_000, ttl: "1h", namespace: "from-file", keys: HEX_KEY },
        },
      },
    );
    expect(settings).toMatchObject({
      limits: { inlineBytes: 49_152, ttlMs: 1_800_000, previewBytes: DEFAULT_LIMITS.previewBytes },
      namespace: "from-file",
      keyRingSource: "file",
    });
  });

  it("reads an app's own rows in the same pass and refuses them in the same error", () => {
    const appRows = {
      maxSessions: defineSetting({
        flag: "max-sessions",
        env: "APP_MAX_SESSIONS",
        value: SETTING_KINDS.count({ min: 1 }),
        default: 64,
        help: "most sessions",
      }),
    };
    const { values } = resolveSettingsWith(appRows, {
      environment: { APP_MAX_SESSIONS: "5", BOUNDED_MCP_KEYS: HEX_KEY },
    });
    expect(values.maxSessions).toBe(5);
    const error = refusal(() =>
      resolveSettingsWith(appRows, {
        environment: { APP_MAX_SESSIONS: "0" },
        flags: { inlineBytes: "1" },
      }),
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      "--inline-bytes 1: must be at least 4096",
      "APP_MAX_SESSIONS=0: must be at least 1",
    ]);
  });
});

describe("resolveSettings refusals name the source the user used", () => {
  it("words one bad value after its flag, variable, config key or option", () => {
    const refusedFrom = (input: ResolveSettingsInput) =>
      refusal(() => resolveSettingsWith({}, { environment: {}, ...input })).issues;
    expect(refusedFrom({ flags: { inlineBytes: "40" } })).toEqual([
      { names: ["--inline-bytes"], message: "--inline-bytes 40: must be at least 4096" },
    ]);
    expect(refusedFrom({ environment: { BOUNDED_MCP_INLINE_BYTES: "40" } })).toEqual([
      {
        names: ["BOUNDED_MCP_INLINE_BYTES"],
        message: "BOUNDED_MCP_INLINE_BYTES=40: must be at least 4096",
      },
    ]);
    expect(refusedFrom({ file: { path: "/c.json", values: { inlineBytes: 40 } } })).toEqual([
      {
        names: ['"inlineBytes" in /c.json'],
        message: '"inlineBytes": 40 in /c.json: must be at least 4096',
      },
    ]);
    expect(refusedFrom({ options: { inlineBytes: 40 } })).toEqual([
      { names: ["options.inlineBytes"], message: "options.inlineBytes=40: must be at least 4096" },
    ]);
  });

  it("lists every unparsable value in one message, in table order", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: {
          BOUNDED_MCP_INLINE_BYTES: "lots",
          BOUNDED_MCP_TTL: "tomorrow",
          BOUNDED_MCP_RESOURCE_LINKS: "maybe",
          BOUNDED_MCP_PAGE_SIZE: "2.5",
        },
      }),
    );
    expect(error.message).toBe(
      "bounded-mcp settings refused (4 problems): BOUNDED_MCP_INLINE_BYTES=lots: expected a byte count such as 32768, 32KiB or 64MiB; BOUNDED_MCP_TTL=tomorrow: expected milliseconds or a duration such as 30m, 24h or 7d; BOUNDED_MCP_PAGE_SIZE=2.5: expected a whole number; BOUNDED_MCP_RESOURCE_LINKS=maybe: expected true or false (also 1/0, yes/no, on/off)",
    );
  });

  it("refuses two names of one setting that disagree, naming both with their values", () => {
    const error = refusal(() =>
      resolveSettings({
        aliases: { inlineBytes: ["OLD_INLINE_BYTES"] },
        environment: { BOUNDED_MCP_INLINE_BYTES: "10000", OLD_INLINE_BYTES: "20000" },
      }),
    );
    expect(error.code).toBe("INVALID_SETTINGS");
    expect(error.issues).toEqual([
      {
        names: ["BOUNDED_MCP_INLINE_BYTES", "OLD_INLINE_BYTES"],
        message:
          "BOUNDED_MCP_INLINE_BYTES=10000 and OLD_INLINE_BYTES=20000 disagree: set only one of them",
      },
    ]);
  });

  it("refuses disagreeing keys without ever showing a secret", () => {
    const error = refusal(() =>
      resolveSettings({
        aliases: { keys: ["OLD_KEY"] },
        environment: { BOUNDED_MCP_KEYS: HEX_KEY, OLD_KEY: OTHER_HEX_KEY },
      }),
    );
    expect(error.message).toBe(
      "bounded-mcp settings refused (1 problem): BOUNDED_MCP_KEYS and OLD_KEY disagree: set only one of them",
    );
  });

  it("refuses a key ring that does not parse, naming where it came from and not its text", () => {
    const error = refusal(() =>
      resolveSettings({ environment: { BOUNDED_MCP_KEYS: "too-short" } }),
    );
    expect(error.issues.map((issue) => issue.names)).toEqual([["BOUNDED_MCP_KEYS"]]);
    expect(error.message).toMatch(
      /^bounded-mcp settings refused \(1 problem\): BOUNDED_MCP_KEYS: is not a key ring: /,
    );
    expect(error.message).not.toContain("too-short");
    expect(problems({ flags: { keys: "too-short" } } as never)[0]).toMatch(
      /^--keys: is not a key ring: /,
    );
  });

  it("refuses previewBytes at or above inlineBytes, naming the default in the user's words", () => {
    expect(problems({ environment: { BOUNDED_MCP_PREVIEW_BYTES: "40000" } })).toEqual([
      "BOUNDED_MCP_PREVIEW_BYTES=40000: must be less than BOUNDED_MCP_INLINE_BYTES (default 32KiB), so that an envelope is smaller than what it replaces",
    ]);
    const fromFlags = refusal(() =>
      resolveSettingsWith({}, { environment: {}, flags: { previewBytes: "40000" } }),
    );
    expect(fromFlags.issues).toEqual([
      {
        names: ["--preview-bytes", "--inline-bytes"],
        message:
          "--preview-bytes 40000: must be less than --inline-bytes (default 32KiB), so that an envelope is smaller than what it replaces",
      },
    ]);
  });

  it("blames the setting the user set when the other one is at its default", () => {
    expect(problems({ options: { inlineBytes: 5_000 } })).toEqual([
      "options.inlineBytes=5000: must be more than options.previewBytes (default 8KiB), so that an envelope is smaller than what it replaces",
    ]);
  });

  it("checks every relation between the limits", () => {
    const error = refusal(() =>
      resolveSettings({
        options: {
          keys: HEX_KEY,
          inlineBytes: 5_000,
          previewBytes: 4_096,
          hardBytes: 4_500,
          artifactMaxBytes: 4_800,
          quotaBytes: 1_000,
        },
      }),
    );
    expect(error.issues.map((issue) => issue.names)).toEqual([
      ["options.inlineBytes", "options.hardBytes"],
      ["options.inlineBytes", "options.artifactMaxBytes"],
      ["options.quotaBytes", "options.artifactMaxBytes"],
    ]);
    expect(
      problems({ options: { ttl: 10, pageSize: 500, previewBytes: 500, parseCacheBytes: -1 } }),
    ).toEqual([
      "options.previewBytes=500: must be at least 1024",
      "options.ttl=10: must be at least 1s",
      "options.pageSize=500: must be at most 100",
      "options.parseCacheBytes=-1: must be at least 0",
    ]);
  });

  it("checks no relation of a value that is already refused (one message per mistake)", () => {
    expect(problems({ environment: { BOUNDED_MCP_INLINE_BYTES: "1KiB" } })).toEqual([
      "BOUNDED_MCP_INLINE_BYTES=1KiB: must be at least 4096",
    ]);
  });

  it("refuses an invalid value given in code and an unknown option", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: {},
        // A JavaScript caller is not stopped by the types.
        options: {
          inlineBytes: true,
          inlinebytes: 5,
          namespace: "Not A Host",
          colour: "red",
        } as never,
      }),
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      "options.inlinebytes is not a setting",
      "options.colour is not a setting",
      "options.inlineBytes=true: expected a byte count such as 32768, 32KiB or 64MiB",
      "options.namespace=\"Not A Host\": must be 1..63 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit",
    ]);
  });

  it("says which setting the store needs, in the words of the source that chose the store", () => {
    expect(
      refusal(() => resolveSettingsWith({}, { environment: {}, flags: { store: "fs" } })).issues,
    ).toEqual([
      {
        names: ["--store", "--store-dir"],
        message: "--store fs: needs --store-dir (the folder of the fs store)",
      },
    ]);
    expect(
      problems({ environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_KEYS: HEX_KEY } }),
    ).toEqual(["BOUNDED_MCP_STORE=fs: needs BOUNDED_MCP_STORE_DIR (the folder of the fs store)"]);
    expect(problems({ file: { path: "/c.json", values: { store: "s3" } } })).toEqual([
      '"store": "s3" in /c.json: needs "s3Bucket" (the bucket of the s3 store)',
    ]);
    expect(problems({ environment: { BOUNDED_MCP_STORE: "redis" } })).toEqual([
      "BOUNDED_MCP_STORE=redis: expected one of memory, fs, s3",
    ]);
    expect(
      problems({ environment: { BOUNDED_MCP_STORE_DIR: "/tmp/a", BOUNDED_MCP_S3_BUCKET: "b" } }),
    ).toEqual([
      "BOUNDED_MCP_STORE_DIR=/tmp/a: is set together with BOUNDED_MCP_S3_BUCKET=b: choose the store with BOUNDED_MCP_STORE",
    ]);
    expect(
      problems({ environment: { BOUNDED_MCP_STORE: "memory", BOUNDED_MCP_STORE_DIR: "/x" } }),
    ).toEqual([
      "BOUNDED_MCP_STORE_DIR=/x: applies to store fs only, not to BOUNDED_MCP_STORE=memory",
    ]);
  });
});
