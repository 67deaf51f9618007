import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { PROXY_CLI, SERVER_EVERYTHING } from "./support/paths.js";
import { proxyEnvironment } from "./support/proxy-process.js";

/**
 * A `--import` preload for the proxy's process: records every V8 flag set through
 * v8.setFlagsFromString and, at exit, writes one line to stderr saying which flags were set and
 * whether node:http's server and prom-client were ever loaded.
 */
const PRELOAD = `
import { createRequire, syncBuiltinESMExports } from "node:module";
import v8 from "node:v8";
const require = createRequire(import.meta.url);
const flags = [];
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (value) => { flags.push(value); setFlags(value); };
syncBuiltinESMExports();
process.on("exit", () => {
  const loaded = Object.keys(require.cache);
  process.stderr.write("START " + JSON.stringify({
    flags,
    httpServer: process.moduleLoadList.includes("NativeModule _http_server"),
    promClient: loaded.some((path) => path.includes("prom-client")),
    globalGc: typeof globalThis.gc,
  }) + "\\n");
});
`;

describe("a stdio proxy's start (README, Startup flags)", () => {
  it("sets the interrupt budget and the large-line collection, leaves no global gc, and never loads the HTTP listener", async () => {
    const preload = join(mkdtempSync(join(tmpdir(), "proxy-start-")), "preload.mjs");
    writeFileSync(preload, PRELOAD);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        `--import=${preload}`,
        PROXY_CLI,
        "--store",
        "memory",
        "--",
        process.execPath,
        SERVER_EVERYTHING,
        "stdio",
      ],
      env: proxyEnvironment(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "start-test", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(result.isError).not.toBe(true);
    const exited = new Promise<void>((resolve) => transport.stderr?.on("close", () => resolve()));
    await client.close();
    await exited;
    const line = stderr.split("\n").find((text) => text.startsWith("START "));
    expect(JSON.parse(line?.slice("START ".length) ?? "null")).toEqual({
      flags: [
        "--heap-growing-percent=20",
        "--interrupt-budget=4096",
        "--expose-gc",
        "--no-expose-gc",
      ],
      httpServer: false,
      promClient: false,
      globalGc: "undefined",
    });
  }, 60_000);
});
