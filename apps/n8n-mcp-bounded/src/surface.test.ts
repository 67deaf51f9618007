import { readEntryExports } from "@bounded-mcp/vitest-config/surface";
import { describe, expect, it } from "vitest";
import * as app from "./index.js";

const exportedTypeNames = () => readEntryExports(new URL("./index.ts", import.meta.url)).types;

// Fails to typecheck when one of the type names README.md's "Programmatic use" needs is gone.
type PinnedTypes = [
  app.N8nMcpBounded,
  app.N8nMcpBoundedOptions,
  app.N8nPreviewHookOptions,
  app.LogLevel,
  app.StderrLogger,
];

/** One name per pinned type: the list below must have exactly as many entries as PinnedTypes. */
type NamesOf<Types extends unknown[]> = { [Index in keyof Types]: string };

describe("n8n-mcp-bounded public surface", () => {
  it("exports exactly the runtime names README.md's programmatic use needs, nothing internal", () => {
    expect(
      Object.fromEntries(
        Object.keys(app)
          .sort()
          .map((name) => [name, typeof (app as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      createN8nMcpBounded: "function",
      createN8nPreviewHook: "function",
      createStderrLogger: "function",
      readN8nMcpVersion: "function",
      resolveN8nMcpEntry: "function",
    });
  });

  it("exports exactly the pinned type names", () => {
    const pinned: NamesOf<PinnedTypes> = [
      "N8nMcpBounded",
      "N8nMcpBoundedOptions",
      "N8nPreviewHookOptions",
      "LogLevel",
      "StderrLogger",
    ];
    expect(exportedTypeNames()).toEqual([...pinned].sort());
  });
});
