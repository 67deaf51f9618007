import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { createKeyRing } from "@bounded-mcp/query-core";
import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../logging/recording-logger.js";
import { resolveSettings } from "./resolve-settings.js";
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
      parseCacheBytes: 256 * 1024 * 1024,
      store: { kind: "memory" },
      namespace: "bounded-mcp",
      resourceLinks: true,
      includeOutputSchema: true,
      includeStructuredContent: true,
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
        BOUNDED_MCP_STORE_DIR: "/var/lib/bounded",
        BOUNDED_MCP_NAMESPACE: "n8n",
        BOUNDED_MCP_RESOURCE_LINKS: "off",
        BOUNDED_MCP_INCLUDE_OUTPUT_SCHEMA: "false",
        BOUNDED_MCP_INCLUDE_STRUCTURED_CONTENT: "no",
        BOUNDED_MCP_KEYS: `k1:${HEX_KEY}`,
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
      },
      quotaBytes: 1_073_741_824,
      parseCacheBytes: 0,
      store: { kind: "fs", dir: "/var/lib/bounded" },
      namespace: "n8n",
      resourceLinks: false,
      includeOutputSchema: false,
      includeStructuredContent: false,
      keyRingSource: "environment",
    });
    expect(keyRing.kids).toEqual(["k1"]);
    expect(logger.records).toEqual([]);
  });

  it("reads the n8n-mcp pull request's MCP_RESPONSE_* names", () => {
    const settings = resolveSettings({
      environment: {
        MCP_RESPONSE_INLINE_BYTES: "20000",
        MCP_RESPONSE_PREVIEW_BYTES: "6000",
        MCP_RESPONSE_HARD_BYTES: "100000",
        MCP_RESPONSE_ARTIFACT_MAX_BYTES: "10000000",
        MCP_RESPONSE_ARTIFACT_TTL_MS: "3600000",
        MCP_RESPONSE_ARTIFACT_QUOTA_BYTES: "50000000",
        MCP_RESPONSE_ARTIFACT_ROOT: "/tmp/artifacts",
        MCP_RESPONSE_CURSOR_KEY: OTHER_HEX_KEY,
      },
    });
    expect(settings.limits).toMatchObject({
      inlineBytes: 20_000,
      previewBytes: 6_000,
      hardBytes: 100_000,
      artifactMaxBytes: 10_000_000,
      ttlMs: 3_600_000,
    });
    expect(settings).toMatchObject({
      quotaBytes: 50_000_000,
      store: { kind: "fs", dir: "/tmp/artifacts" },
      keyRingSource: "environment",
    });
  });

  it("accepts two names that agree, even when written differently", () => {
    const settings = resolveSettings({
      environment: {
        BOUNDED_MCP_TTL: "1h",
        MCP_RESPONSE_ARTIFACT_TTL_MS: "3600000",
        BOUNDED_MCP_INLINE_BYTES: "32KiB",
        MCP_RESPONSE_INLINE_BYTES: "32768",
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

  it("chooses an S3 store from its bucket", () => {
    const settings = resolveSettings({
      environment: {
        BOUNDED_MCP_S3_BUCKET: "artifacts",
        BOUNDED_MCP_S3_PREFIX: "prod/",
        BOUNDED_MCP_S3_ENDPOINT: "http://127.0.0.1:4569",
        BOUNDED_MCP_KEYS: HEX_KEY,
      },
    });
    expect(settings.store).toEqual({
      kind: "s3",
      bucket: "artifacts",
      prefix: "prod/",
      endpoint: "http://127.0.0.1:4569",
      region: null,
    });
  });
});

describe("resolveSettings from options", () => {
  it("lets options win over the environment and accepts a ready key ring", () => {
    const keyRing = createKeyRing([{ kid: "code", secret: fixedBytes(32) }]);
    const settings = resolveSettings({
      environment: { BOUNDED_MCP_INLINE_BYTES: "20000", BOUNDED_MCP_KEYS: HEX_KEY },
      options: { limits: { inlineBytes: 40_000 }, keys: keyRing, namespace: "mine" },
    });
    expect(settings.limits.inlineBytes).toBe(40_000);
    expect(settings.keyRing).toBe(keyRing);
    expect(settings.keyRingSource).toBe("options");
    expect(settings.namespace).toBe("mine");
  });
});

describe("resolveSettings refusals", () => {
  it("refuses two names that disagree, naming both with their values", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: { BOUNDED_MCP_INLINE_BYTES: "1000", MCP_RESPONSE_INLINE_BYTES: "2000" },
      }),
    );
    expect(error.code).toBe("INVALID_SETTINGS");
    expect(error.message).toBe(
      "bounded-mcp settings refused (1 problem): BOUNDED_MCP_INLINE_BYTES=1000 and MCP_RESPONSE_INLINE_BYTES=2000 disagree: set only one of them",
    );
    expect(error.issues).toEqual([
      {
        names: ["BOUNDED_MCP_INLINE_BYTES", "MCP_RESPONSE_INLINE_BYTES"],
        message:
          "BOUNDED_MCP_INLINE_BYTES=1000 and MCP_RESPONSE_INLINE_BYTES=2000 disagree: set only one of them",
      },
    ]);
  });

  it("refuses disagreeing keys without ever showing a secret", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: { BOUNDED_MCP_KEYS: HEX_KEY, MCP_RESPONSE_CURSOR_KEY: OTHER_HEX_KEY },
      }),
    );
    expect(error.message).toBe(
      "bounded-mcp settings refused (1 problem): BOUNDED_MCP_KEYS and MCP_RESPONSE_CURSOR_KEY disagree: set only one of them",
    );
  });

  it("refuses a key ring that does not parse, naming the variable it came from", () => {
    const error = refusal(() =>
      resolveSettings({ environment: { MCP_RESPONSE_CURSOR_KEY: "too-short" } }),
    );
    expect(error.issues.map((issue) => issue.names)).toEqual([["MCP_RESPONSE_CURSOR_KEY"]]);
    expect(error.message).toMatch(
      /^bounded-mcp settings refused \(1 problem\): MCP_RESPONSE_CURSOR_KEY is not a key ring: /,
    );
    expect(error.message).not.toContain("too-short");
  });

  it("lists every unparsable value in one message", () => {
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
      'bounded-mcp settings refused (4 problems): BOUNDED_MCP_INLINE_BYTES="lots" is not a byte count such as 32768, 32KiB or 64MiB; BOUNDED_MCP_TTL="tomorrow" is not milliseconds or a duration such as 30m, 24h or 7d; BOUNDED_MCP_PAGE_SIZE="2.5" is not a whole number; BOUNDED_MCP_RESOURCE_LINKS="maybe" is not true or false (also 1/0, yes/no, on/off)',
    );
  });

  it("refuses previewBytes at or above inlineBytes, naming both sources", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: { MCP_RESPONSE_PREVIEW_BYTES: "40000" },
        options: { keys: HEX_KEY },
      }),
    );
    expect(error.issues).toEqual([
      {
        names: ["MCP_RESPONSE_PREVIEW_BYTES", "limits.inlineBytes"],
        message:
          "previewBytes must be less than inlineBytes (an envelope must be smaller than what it replaces) (MCP_RESPONSE_PREVIEW_BYTES=40000, limits.inlineBytes (default 32768))",
      },
    ]);
  });

  it("checks every relation between the limits", () => {
    const error = refusal(() =>
      resolveSettings({
        options: {
          keys: HEX_KEY,
          limits: {
            inlineBytes: 2_000,
            previewBytes: 500,
            hardBytes: 1_000,
            artifactMaxBytes: 1_500,
            ttlMs: 10,
            pageSize: 500,
          },
          quotaBytes: 1_000,
        },
      }),
    );
    expect(error.issues.map((issue) => issue.names)).toEqual([
      ["options.limits.previewBytes"],
      ["options.limits.inlineBytes", "options.limits.hardBytes"],
      ["options.limits.inlineBytes"],
      ["options.limits.inlineBytes", "options.limits.artifactMaxBytes"],
      ["options.quotaBytes", "options.limits.artifactMaxBytes"],
      ["options.limits.ttlMs"],
      ["options.limits.pageSize"],
    ]);
  });

  it("refuses an invalid value given in code and an unknown option", () => {
    const error = refusal(() =>
      resolveSettings({
        environment: {},
        // A JavaScript caller is not stopped by the types.
        options: {
          limits: { inlineBytes: -1, inlinebytes: 5 },
          s3: { buckt: "b" },
          namespace: "Not A Host",
          colour: "red",
        } as never,
      }),
    );
    expect(error.issues.map((issue) => issue.names)).toEqual([
      ["options.colour"],
      ["options.limits.inlinebytes"],
      ["options.s3.buckt"],
      ["options.limits.inlineBytes"],
      ["options.namespace"],
    ]);
  });

  it("refuses store settings that contradict each other", () => {
    const fsWithoutDir = refusal(() =>
      resolveSettings({ environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_KEYS: HEX_KEY } }),
    );
    expect(fsWithoutDir.issues).toEqual([
      {
        names: ["BOUNDED_MCP_STORE", "BOUNDED_MCP_STORE_DIR"],
        message:
          "BOUNDED_MCP_STORE=fs needs a directory: set storeDir (BOUNDED_MCP_STORE_DIR or MCP_RESPONSE_ARTIFACT_ROOT)",
      },
    ]);
    const unknownKind = refusal(() =>
      resolveSettings({ environment: { BOUNDED_MCP_STORE: "redis" } }),
    );
    expect(unknownKind.message).toContain('BOUNDED_MCP_STORE="redis" is not one of memory, fs, s3');
    const both = refusal(() =>
      resolveSettings({
        environment: { MCP_RESPONSE_ARTIFACT_ROOT: "/tmp/a", BOUNDED_MCP_S3_BUCKET: "b" },
      }),
    );
    expect(both.issues[0]?.names).toEqual(["MCP_RESPONSE_ARTIFACT_ROOT", "BOUNDED_MCP_S3_BUCKET"]);
    const memoryWithDir = refusal(() =>
      resolveSettings({
        environment: { BOUNDED_MCP_STORE: "memory", BOUNDED_MCP_STORE_DIR: "/x" },
      }),
    );
    expect(memoryWithDir.message).toContain(
      "BOUNDED_MCP_STORE_DIR is set but BOUNDED_MCP_STORE is memory",
    );
  });
});
