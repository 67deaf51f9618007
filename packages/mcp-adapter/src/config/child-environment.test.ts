import { describe, expect, it } from "vitest";
import { withoutAdapterVariables } from "./child-environment.js";

describe("withoutAdapterVariables", () => {
  it("keeps the user's variables and drops every adapter setting and unset value", () => {
    expect(
      withoutAdapterVariables({
        PATH: "/usr/bin",
        N8N_API_KEY: "k",
        BOUNDED_MCP_KEYS: "secret",
        BOUNDED_MCP_LISTEN: "stdio",
        MCP_RESPONSE_CURSOR_KEY: "secret",
        EMPTY: undefined,
      }),
    ).toEqual({ PATH: "/usr/bin", N8N_API_KEY: "k" });
  });
});
