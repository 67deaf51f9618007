import { describe, expect, it } from "vitest";
import { createChildEnvironment } from "./child-environment.js";

describe("the n8n-mcp child's environment", () => {
  it("forwards n8n-mcp's settings, drops the adapter's own, and turns telemetry off", () => {
    expect(
      createChildEnvironment({
        N8N_API_URL: "https://n8n.example.com",
        N8N_API_KEY: "key",
        DISABLED_TOOLS: "n8n_delete_workflow",
        WEBHOOK_SECURITY_MODE: "moderate",
        PATH: "/usr/bin",
        MCP_RESPONSE_INLINE_BYTES: "16384",
        BOUNDED_MCP_KEYS: "secret",
        N8N_MCP_BOUNDED_LOG_LEVEL: "debug",
        UNSET: undefined,
      }),
    ).toEqual({
      N8N_API_URL: "https://n8n.example.com",
      N8N_API_KEY: "key",
      DISABLED_TOOLS: "n8n_delete_workflow",
      WEBHOOK_SECURITY_MODE: "moderate",
      PATH: "/usr/bin",
      N8N_MCP_TELEMETRY_DISABLED: "true",
    });
  });

  it("keeps telemetry on only when the user sets N8N_MCP_TELEMETRY_DISABLED=false explicitly", () => {
    const telemetry = (value: string | undefined) =>
      createChildEnvironment({ N8N_MCP_TELEMETRY_DISABLED: value }).N8N_MCP_TELEMETRY_DISABLED;
    expect([undefined, "", "true", "yes", "false", " FALSE ", "0"].map(telemetry)).toEqual([
      "true",
      "true",
      "true",
      "true",
      "false",
      " FALSE ",
      "0",
    ]);
  });
});
