import { describe, expect, it } from "vitest";
import { toUpstreamSpec } from "./upstream-spec.js";

describe("toUpstreamSpec", () => {
  it("gives a child the proxy's environment without the proxy's own settings and keys", () => {
    const environment = {
      PATH: "/usr/bin",
      GITHUB_TOKEN: "for-the-server",
      BOUNDED_MCP_KEYS: `main:${"a".repeat(64)}`,
      BOUNDED_MCP_INLINE_BYTES: "32KiB",
      MCP_RESPONSE_TTL_MS: "60000",
      UNSET: undefined,
    };
    expect(
      toUpstreamSpec({ kind: "stdio", command: "npx", args: ["-y", "server"] }, environment),
    ).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "server"],
      env: { PATH: "/usr/bin", GITHUB_TOKEN: "for-the-server" },
    });
  });

  it("passes an HTTP upstream's URL and headers as given", () => {
    const url = new URL("https://mcp.example.com/mcp");
    expect(
      toUpstreamSpec({ kind: "http", url, headers: { Authorization: "Bearer abc" } }, {}),
    ).toEqual({ kind: "http", url, headers: { Authorization: "Bearer abc" } });
  });
});
