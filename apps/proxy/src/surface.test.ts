import { readEntryExports } from "@bounded-mcp/vitest-config/surface";
import { describe, expect, it } from "vitest";
import * as proxy from "./index.js";

const exportedTypeNames = () => readEntryExports(new URL("./index.ts", import.meta.url)).types;

// Fails to typecheck when one of the type names README.md's "Programmatic use" needs is gone.
type PinnedTypes = [
  proxy.LoadedOptions,
  proxy.ProxyOptions,
  proxy.ProxyLogger,
  proxy.RunningProxy,
  proxy.RunProxyDependencies,
];

/** One name per pinned type: the list below must have exactly as many entries as PinnedTypes. */
type NamesOf<Types extends unknown[]> = { [Index in keyof Types]: string };

describe("bounded-mcp-proxy public surface", () => {
  it("exports exactly the runtime names README.md's programmatic use needs, nothing internal", () => {
    expect(
      Object.fromEntries(
        Object.keys(proxy)
          .sort()
          .map((name) => [name, typeof (proxy as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      UsageError: "function",
      createProxyLogger: "function",
      loadOptions: "function",
      runProxy: "function",
    });
  });

  it("exports exactly the pinned type names", () => {
    const pinned: NamesOf<PinnedTypes> = [
      "LoadedOptions",
      "ProxyOptions",
      "ProxyLogger",
      "RunningProxy",
      "RunProxyDependencies",
    ];
    expect(exportedTypeNames()).toEqual([...pinned].sort());
  });
});
