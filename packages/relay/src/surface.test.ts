import { describe, expect, it } from "vitest";
import * as relay from "./index.js";

describe("@bounded-mcp/relay public surface", () => {
  it("exports exactly the runtime names README.md documents, nothing internal", () => {
    expect(
      Object.fromEntries(
        Object.keys(relay)
          .sort()
          .map((name) => [name, typeof (relay as Record<string, unknown>)[name]]),
      ),
    ).toEqual({
      DEFAULT_MAX_MESSAGE_BYTES: "number",
      STDIO_SHUTDOWN_GRACE_MS: "number",
      UPSTREAM_REQUEST_OPTIONS: "object",
      chooseDefaultStdioStore: "function",
      collectAfterLargeLines: "function",
      createBoundedRelay: "function",
      createLinearStdioClientTransport: "function",
      createLinearStdioServerTransport: "function",
      createUpstreamSupervisor: "function",
      describeCall: "function",
      exposeFullCollection: "function",
      defineRelayHooks: "function",
      openUserCacheStore: "function",
      prepareStdioProcess: "function",
      readOrCreateKeyFile: "function",
      serveStdio: "function",
      toolHooksFromModule: "function",
      trackInFlight: "function",
      userCacheDir: "function",
      withExactQueryArguments: "function",
      withExactToolArguments: "function",
    });
  });
});
