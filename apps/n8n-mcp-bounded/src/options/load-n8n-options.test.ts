import { describe, expect, it } from "vitest";
import { loadN8nOptions } from "./load-n8n-options.js";

const HEX_KEY = "ab".repeat(32);

describe("loadN8nOptions", () => {
  it("passes n8n-mcp's telemetry command through untouched", () => {
    expect(loadN8nOptions(["telemetry", "status", "--x"], {})).toEqual({
      action: "telemetry",
      args: ["telemetry", "status", "--x"],
    });
  });

  it("puts flags over the environment and warns of names it does not read", () => {
    const command = loadN8nOptions(["--ttl", "2h", "--log-level", "debug"], {
      MCP_RESPONSE_ARTIFACT_TTL_MS: "60000",
      BOUNDED_MCP_KEYS: HEX_KEY,
      BOUNDED_MCP_TTL_MS: "1",
      MCP_RESPONSE_ENABLED: "true",
    });
    expect(command).toMatchObject({
      action: "run",
      logLevel: "debug",
      settings: { limits: { ttlMs: 7_200_000 }, namespace: "n8n-mcp" },
      warnings: [
        {
          setting: "BOUNDED_MCP_TTL_MS",
          message:
            "BOUNDED_MCP_TTL_MS is not a setting of n8n-mcp-bounded (see --help); it is not forwarded to n8n-mcp either",
        },
        {
          setting: "MCP_RESPONSE_ENABLED",
          message:
            "MCP_RESPONSE_ENABLED is not a setting of n8n-mcp-bounded (see --help); it is not forwarded to n8n-mcp either",
        },
      ],
    });
  });

  it("refuses arguments after -- (it starts n8n-mcp itself)", () => {
    expect(() => loadN8nOptions(["--", "npx", "n8n-mcp"], {})).toThrow(
      "unexpected arguments after --: npx n8n-mcp (n8n-mcp-bounded starts n8n-mcp itself)",
    );
  });
});
