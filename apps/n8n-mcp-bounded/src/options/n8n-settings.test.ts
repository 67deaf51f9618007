import { SettingsError } from "@bounded-mcp/mcp-adapter";
import { describe, expect, it } from "vitest";
import { N8N_TABLE, resolveN8nSettings } from "./n8n-settings.js";

const HEX_KEY = "ab".repeat(32);
const OTHER_HEX_KEY = "cd".repeat(32);

function messages(environment: Record<string, string>, flags = {}): string[] {
  try {
    resolveN8nSettings({ environment, flags });
  } catch (error) {
    if (SettingsError.isInstance(error)) return error.issues.map((issue) => issue.message);
    throw error;
  }
  throw new Error("expected a SettingsError");
}

describe("n8n-mcp-bounded's settings", () => {
  it("reads the n8n-mcp pull request's MCP_RESPONSE_* names", () => {
    const { settings } = resolveN8nSettings({
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
      namespace: "n8n-mcp",
    });
  });

  it("accepts both names of a setting when they agree, and refuses them when they do not", () => {
    const { settings } = resolveN8nSettings({
      environment: {
        BOUNDED_MCP_TTL: "1h",
        MCP_RESPONSE_ARTIFACT_TTL_MS: "3600000",
        BOUNDED_MCP_KEYS: HEX_KEY,
      },
    });
    expect(settings.limits.ttlMs).toBe(3_600_000);
    expect(
      messages({ BOUNDED_MCP_INLINE_BYTES: "10000", MCP_RESPONSE_INLINE_BYTES: "20000" }),
    ).toEqual([
      "BOUNDED_MCP_INLINE_BYTES=10000 and MCP_RESPONSE_INLINE_BYTES=20000 disagree: set only one of them",
    ]);
    expect(messages({ BOUNDED_MCP_KEYS: HEX_KEY, MCP_RESPONSE_CURSOR_KEY: OTHER_HEX_KEY })).toEqual(
      ["BOUNDED_MCP_KEYS and MCP_RESPONSE_CURSOR_KEY disagree: set only one of them"],
    );
  });

  it("names the older variable the user set, and the flag over both", () => {
    expect(messages({ MCP_RESPONSE_PREVIEW_BYTES: "40000" })).toEqual([
      "MCP_RESPONSE_PREVIEW_BYTES=40000: must be less than BOUNDED_MCP_INLINE_BYTES (default 32KiB), so that an envelope is smaller than what it replaces",
    ]);
    expect(messages({ MCP_RESPONSE_INLINE_BYTES: "20000" }, { inlineBytes: "40" })).toEqual([
      "--inline-bytes 40: must be at least 4096",
    ]);
  });

  it("uses the n8n-mcp namespace unless one is configured, and reads --log-level", () => {
    const byDefault = resolveN8nSettings({ environment: { BOUNDED_MCP_KEYS: HEX_KEY } });
    expect([byDefault.settings.namespace, byDefault.values.logLevel]).toEqual(["n8n-mcp", "info"]);
    const configured = resolveN8nSettings({
      environment: { BOUNDED_MCP_NAMESPACE: "mine", N8N_MCP_BOUNDED_LOG_LEVEL: "debug" },
      flags: { logLevel: "warn" },
    });
    expect([configured.settings.namespace, configured.values.logLevel]).toEqual(["mine", "warn"]);
    expect(messages({ N8N_MCP_BOUNDED_LOG_LEVEL: "loud" })).toEqual([
      "N8N_MCP_BOUNDED_LOG_LEVEL=loud: expected one of debug, info, warn, error, silent",
    ]);
  });

  it("has a flag and a variable for every row, with a default that passes its schema", () => {
    for (const row of Object.values(N8N_TABLE)) {
      expect(row.flag).not.toBe("");
      expect(row.env).not.toBe("");
      expect(row.schema.safeParse(row.default).success).toBe(true);
    }
  });
});
