import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as app from "./index.js";

/** The type names src/index.ts re-exports (`type X` inside its named `export { ... } from` blocks). */
function exportedTypeNames(): string[] {
  const source = readFileSync(new URL("./index.ts", import.meta.url), "utf8");
  expect(source).not.toMatch(/export\s+\*/);
  return [...source.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from/g)]
    .flatMap((block) =>
      block[2]!
        .split(",")
        .map((raw) => raw.trim())
        .filter((name) => name !== "" && (block[1] !== undefined || name.startsWith("type ")))
        .map((name) => name.replace(/^type\s+/, "")),
    )
    .sort();
}

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
