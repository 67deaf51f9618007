import { readEntryExports } from "@bounded-mcp/vitest-config/surface";
import { describe, expect, it } from "vitest";
import * as settingsEntry from "../src/config/index.js";
import * as adapter from "../src/index.js";
import * as testingEntry from "../src/testing/index.js";

// Fails to typecheck when one of the pinned type names is no longer exported.
type PinnedTypes = [
  adapter.AdapterSession,
  adapter.AdapterSettings,
  adapter.BoundContext,
  adapter.BoundResult,
  adapter.BoundedMcp,
  adapter.BoundedMcpOptions,
  adapter.CallToolHandler,
  adapter.JsonSchema,
  adapter.LogFields,
  adapter.Logger,
  adapter.OpenSessionOptions,
  adapter.OutputSchemaToolOptions,
  adapter.PreviewHook,
  adapter.PreviewInput,
  adapter.PreviewOverride,
  adapter.RedactHook,
  adapter.ResultOverride,
  adapter.ScopeContext,
  adapter.ScopeResolver,
  adapter.SessionExtra,
  adapter.SettingsOptions,
  adapter.StatsSnapshot,
  adapter.StructuredLogTarget,
  adapter.ToolCallNext,
];

/** One name per pinned type: the list below must have exactly as many entries as PinnedTypes. */
type NamesOf<Types extends unknown[]> = { [Index in keyof Types]: string };

describe("@bounded-mcp/mcp-adapter public surface", () => {
  it("exports exactly the runtime names README.md's API section documents", () => {
    expect(
      Object.fromEntries(
        Object.keys(adapter)
          .sort()
          .map((name) => [name, typeof (adapter as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      SILENT_LOGGER: "object",
      SettingsError: "function",
      createBoundedMcp: "function",
      createLoggerFrom: "function",
      createPreviewOverride: "function",
      createResultSdkTransport: "function",
      getRawCallToolRequest: "function",
      resolveSettings: "function",
      rewriteOutputSchema: "function",
      setRawCallToolResult: "function",
      toStructuredContent: "function",
      withResultSdk: "function",
    });
  });

  it("exports exactly the pinned type names, at most 36 names in all", () => {
    const { values, types } = readEntryExports(new URL("../src/index.ts", import.meta.url));
    expect(values).toEqual(Object.keys(adapter).sort());
    const pinned: NamesOf<PinnedTypes> = [
      "AdapterSession",
      "AdapterSettings",
      "BoundContext",
      "BoundResult",
      "BoundedMcp",
      "BoundedMcpOptions",
      "CallToolHandler",
      "JsonSchema",
      "LogFields",
      "Logger",
      "OpenSessionOptions",
      "OutputSchemaToolOptions",
      "PreviewHook",
      "PreviewInput",
      "PreviewOverride",
      "RedactHook",
      "ResultOverride",
      "ScopeContext",
      "ScopeResolver",
      "SessionExtra",
      "SettingsOptions",
      "StatsSnapshot",
      "StructuredLogTarget",
      "ToolCallNext",
    ];
    expect(types).toEqual([...pinned].sort());
    expect(values.length + types.length).toBe(36);
  });

  it("keeps test helpers under /testing and the settings' detail names under /settings", () => {
    expect(Object.keys(testingEntry).sort()).toEqual([
      "LARGE_PAYLOAD_CHANNEL",
      "createRecordingLogger",
      "findStrictSchemaProblems",
    ]);
    expect(Object.keys(settingsEntry)).toContain("withoutAdapterVariables");
    for (const moved of ["createRecordingLogger", "withoutAdapterVariables"]) {
      expect(Object.keys(adapter)).not.toContain(moved);
    }
  });
});
