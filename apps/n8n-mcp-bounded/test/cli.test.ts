import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { N8N_TABLE } from "../src/options/n8n-settings.js";
import { testEnvironment } from "./support/connect-bounded.js";
import { envelopeOf } from "./support/envelopes.js";

/** The built bin, as `npx n8n-mcp-bounded` runs it (the test script builds first). */
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

const home = mkdtempSync(join(tmpdir(), "n8n-bounded-home-"));
let client: Client;
let stderr = "";

beforeAll(async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI],
    // No BOUNDED_MCP_KEYS and no store: the fs store and a key file under $HOME/.cache.
    env: { PATH: process.env.PATH ?? "", HOME: home, N8N_MCP_BOUNDED_LOG_LEVEL: "info" },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  client = new Client({ name: "claude-desktop", version: "1.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

function runCli(environment: Record<string, string>, args: string[] = []) {
  return spawnSync(process.execPath, [CLI, ...args], {
    env: testEnvironment({ HOME: home, ...environment }),
    input: "",
    encoding: "utf8",
  });
}

/** The initialize request a client sends first, as JSON-RPC. */
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "claude-desktop", version: "1.0.0" },
  },
};

/** The bin as a raw child: its stdin, what it wrote so far to stdout and stderr, and its exit. */
function spawnBin(environment: Record<string, string>) {
  const bin = spawn(process.execPath, [CLI], {
    env: testEnvironment({ HOME: home, ...environment }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  bin.stdout.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString("utf8");
  });
  bin.stderr.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString("utf8");
  });
  return { stdin: bin.stdin, output, exited: once(bin, "exit") };
}

describe("the n8n-mcp-bounded bin over stdio", () => {
  it("serves n8n-mcp's tools plus the query tool, as n8n-mcp's own server", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      "tools_documentation",
      "search_nodes",
      "get_node",
      "validate_node",
      "get_template",
      "search_templates",
      "validate_workflow",
      QUERY_TOOL_NAME,
    ]);
    expect(client.getServerVersion()).toEqual({
      name: "n8n-documentation-mcp",
      version: JSON.parse(
        readFileSync(
          fileURLToPath(new URL("../node_modules/n8n-mcp/package.json", import.meta.url)),
          "utf8",
        ),
      ).version,
    });
  });

  it("bounds a large result into artifact://n8n-mcp/ and logs JSON lines to stderr only", async () => {
    const result = (await client.callTool({
      name: "get_node",
      arguments: { nodeType: "n8n-nodes-base.notion", detail: "full" },
    })) as CallToolResult;
    const envelope = envelopeOf(result);
    expect(envelope.responseMeta.artifact.uri).toBe(
      `artifact://n8n-mcp/${envelope.responseMeta.artifact.id}`,
    );
    const descriptor = await client.readResource({ uri: envelope.responseMeta.artifact.uri ?? "" });
    expect(descriptor.contents[0]).toMatchObject({ uri: envelope.responseMeta.artifact.uri });
    const records = stderr
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map(({ time: _time, ...record }) => record)).toEqual([
      {
        level: 30,
        name: "n8n-mcp-bounded",
        msg: "artifacts are kept in the user's cache folder (--store memory keeps them in this process only)",
        storeDir: join(home, ".cache", "bounded-mcp", "artifacts"),
        keyFile: join(home, ".cache", "bounded-mcp", "keys"),
      },
      {
        level: 30,
        name: "n8n-mcp-bounded",
        msg: "bounded result",
        tool: "get_node",
        bytesReceived: envelope.responseMeta.serializedBytes,
        bytesToModel: expect.any(Number),
        artifactId: envelope.responseMeta.artifact.id,
        ms: expect.any(Number),
      },
    ]);
  });

  it("runs n8n-mcp's telemetry command with telemetry off by environment unless set to false", () => {
    const byDefault = runCli({}, ["telemetry", "status"]);
    expect(byDefault.status).toBe(0);
    expect(byDefault.stdout).toContain("Telemetry Status: DISABLED (via environment variable)");
    const optedIn = runCli({ N8N_MCP_TELEMETRY_DISABLED: "false" }, ["telemetry", "status"]);
    expect(optedIn.stdout).toContain("Telemetry Status:");
    expect(optedIn.stdout).not.toContain("(via environment variable)");
  });

  it("refuses an invalid MCP_RESPONSE_* setting with one line on stderr and exit code 2", () => {
    const refused = runCli({ MCP_RESPONSE_INLINE_BYTES: "lots" });
    expect({ status: refused.status, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "n8n-mcp-bounded: MCP_RESPONSE_INLINE_BYTES=lots: expected a byte count such as 32768, 32KiB or 64MiB\n",
    });
  });

  it.each([
    [["--x"], "unknown option --x (see --help)"],
    [["--inline-bytes", "40"], "--inline-bytes 40: must be at least 4096"],
    [["--store", "fs"], "--store fs: needs --store-dir (the folder of the fs store)"],
    [["--log-level", "loud"], "--log-level loud: expected one of debug, info, warn, error, silent"],
    [
      ["serve"],
      'unexpected argument "serve": n8n-mcp-bounded takes options only (and n8n-mcp\'s telemetry command)',
    ],
  ])("exits 2 with one line on stderr for %j", (args, message) => {
    const refused = runCli({}, args);
    expect({ status: refused.status, stdout: refused.stdout, stderr: refused.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr: `n8n-mcp-bounded: ${message}\n`,
    });
  });

  it("prints --version, and --help with every setting's flag, variables, default and limits", () => {
    const { version } = JSON.parse(
      readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
    ) as { version: string };
    const versioned = runCli({}, ["--version"]);
    expect({ status: versioned.status, stdout: versioned.stdout }).toEqual({
      status: 0,
      stdout: `${version}\n`,
    });
    const help = runCli({}, ["--help"]);
    expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: "" });
    const lines = help.stdout.split("\n");
    for (const row of Object.values(N8N_TABLE)) {
      const at = lines.findIndex((line) =>
        line.startsWith(`  --${row.argument === null ? "[no-]" : ""}${row.flag} `),
      );
      expect(at).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(new RegExp(`^ +env ${row.env}( or \\w+)?, default \\S`));
    }
    expect(help.stdout).toContain(
      "env BOUNDED_MCP_INLINE_BYTES or MCP_RESPONSE_INLINE_BYTES, default 32KiB",
    );
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "limits: previewBytes >= 1024; previewBytes < inlineBytes",
    );
    expect(help.stdout).toContain("env BOUNDED_MCP_NAMESPACE, default n8n-mcp");
  });

  it("accepts the store and limit flags, which then configure the adapter", async () => {
    const store = mkdtempSync(join(tmpdir(), "n8n-bounded-store-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        CLI,
        "--store",
        "fs",
        "--store-dir",
        store,
        "--inline-bytes",
        "8KiB",
        "--preview-bytes",
        "4KiB",
        "--log-level",
        "error",
      ],
      env: testEnvironment({ HOME: home }),
      stderr: "pipe",
    });
    const flagged = new Client({ name: "flags", version: "1.0.0" });
    await flagged.connect(transport);
    try {
      const result = (await flagged.callTool({
        name: "get_node",
        arguments: { nodeType: "n8n-nodes-base.notion", detail: "full" },
      })) as CallToolResult;
      const envelope = envelopeOf(result);
      expect(Buffer.byteLength(JSON.stringify(result.structuredContent))).toBeLessThanOrEqual(4096);
      expect(readdirSync(store).length).toBeGreaterThan(0);
      expect(envelope.responseMeta.artifact.id).not.toBe("");
    } finally {
      await flagged.close();
      rmSync(store, { recursive: true, force: true });
    }
  });

  it("answers the calls in flight when the client closes stdin right after sending them", async () => {
    const bin = spawnBin({});
    const messages = [
      INITIALIZE,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "tools_documentation" } },
    ];
    bin.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
    const [code] = await bin.exited;
    const answers = bin.output.stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { id?: number; result?: { isError?: boolean } });
    expect({
      code,
      ids: answers.map((answer) => answer.id),
      callFailed: answers.find((answer) => answer.id === 2)?.result?.isError ?? false,
    }).toEqual({ code: 0, ids: [1, 2], callFailed: false });
  });

  it("ends with code 1, after answering the initialize, when n8n-mcp cannot be started", async () => {
    // A preload that ends only the n8n-mcp child (its entry is stdio-wrapper.js), never the bin.
    const preload = join(home, "fail-n8n-mcp.cjs");
    writeFileSync(
      preload,
      'if ((process.argv[1] ?? "").endsWith("stdio-wrapper.js")) process.exit(3);\n',
    );
    const bin = spawnBin({ NODE_OPTIONS: `--require=${preload}` });
    bin.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    const [code] = await bin.exited;
    bin.stdin.destroy();
    expect({ code, answer: JSON.parse(bin.output.stdout) }).toEqual({
      code: 1,
      answer: {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32603,
          message: expect.stringContaining('upstream "n8n-mcp" exited with code 3'),
        },
      },
    });
    expect(bin.output.stderr).toContain('"msg":"n8n-mcp could not be started: exiting"');
  });
});
