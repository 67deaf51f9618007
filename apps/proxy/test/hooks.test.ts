import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROXY_CLI, SERVER_EVERYTHING } from "./support/paths.js";
import { connectStdioProxy, proxyEnvironment } from "./support/proxy-process.js";

const HOOKS = fileURLToPath(new URL("./support/shout-hooks.mjs", import.meta.url));
const NOT_HOOKS = fileURLToPath(new URL("./support/not-hooks.mjs", import.meta.url));
let client: Client;

beforeAll(async () => {
  client = await connectStdioProxy([
    "--hooks",
    HOOKS,
    "--",
    process.execPath,
    SERVER_EVERYTHING,
    "stdio",
  ]);
});

afterAll(async () => {
  await client?.close();
});

describe("bounded-mcp-proxy --hooks", () => {
  it("runs the module's hook for its tool, with the per-call result SDK", async () => {
    expect(await client.callTool({ name: "echo", arguments: { message: "quiet" } })).toEqual({
      content: [{ type: "text", text: "ECHO: QUIET" }],
      _meta: { hookedArguments: { message: "quiet" } },
    });
  });

  it("leaves the results of other tools alone", async () => {
    expect(await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).toEqual({
      content: [{ type: "text", text: "The sum of 1 and 2 is 3." }],
    });
  });

  it("exits with code 2 and one line when the hooks module has the wrong shape", () => {
    const run = spawnSync(
      process.execPath,
      [PROXY_CLI, "--hooks", NOT_HOOKS, "--", process.execPath, SERVER_EVERYTHING, "stdio"],
      { env: proxyEnvironment(), encoding: "utf8", input: "" },
    );
    expect({
      status: run.status,
      stdout: run.stdout,
      lines: run.stderr.trim().split("\n"),
    }).toEqual({
      status: 2,
      stdout: "",
      lines: [
        expect.stringMatching(
          /^bounded-mcp-proxy: --hooks .*not-hooks\.mjs: hooks module .* must export default \{ tools: /,
        ),
      ],
    });
  });
});
