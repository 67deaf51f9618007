/**
 * The root README's quick start, run as written: its "from a clone" block, then its "from
 * tarballs" block (read from the README at test time and run with `sh -e`, HOME pointing at a
 * temporary folder), which packs all seven published packages and installs them with plain npm;
 * the proxy installed there then makes one bounded call.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readmeBlock } from "@bounded-mcp/vitest-config/readme-blocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type Envelope, structured } from "./support/query.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const README = join(ROOT, "README.md");
const PUBLISHED = [
  "bounded-mcp-contract",
  "bounded-mcp-mcp-adapter",
  "bounded-mcp-proxy",
  "bounded-mcp-query-core",
  "bounded-mcp-relay",
  "bounded-mcp-stores",
  "n8n-mcp-bounded",
];
const home = mkdtempSync(join(tmpdir(), "bounded-mcp-packed-"));
const folder = createJsonFolder(1);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(folder.dir, { recursive: true, force: true });
});

/** The user's npm setting `name` as npm itself resolves it (read before HOME is changed). */
function npmSetting(name: string): string {
  return execFileSync("npm", ["config", "get", name], {
    env: npmEnvironment(),
    encoding: "utf8",
  }).trim();
}

/** This environment without pnpm's npm_config_* (the test runs under pnpm; npm must not see them). */
function npmEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^npm_/i.test(name) && !name.startsWith("BOUNDED_MCP_")) {
      environment[name] = value;
    }
  }
  return { ...environment, npm_config_update_notifier: "false", npm_config_fund: "false" };
}

/**
 * A user's shell in a fresh HOME: npm keeps reading the user's own npm config file and cache
 * (offline-first, as a machine that installed once before would), the clone is the folder.
 */
let userNpm: { userconfig: string; cache: string } | undefined;
function userShell(code: string) {
  userNpm ??= { userconfig: npmSetting("userconfig"), cache: npmSetting("cache") };
  const { userconfig, cache } = userNpm;
  return spawnSync("sh", ["-e", "-c", code], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...npmEnvironment(),
      HOME: home,
      npm_config_userconfig: userconfig,
      npm_config_cache: cache,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      // n8n-mcp's optional better-sqlite3 compiles SQLite from source when no prebuilt binary
      // can be fetched (minutes on two cores); without it n8n-mcp runs on sql.js, which is all
      // --help needs. The native module is tested in the workspace (native-database.test.ts).
      npm_config_omit: "optional",
    },
  });
}

describe("the README quick start", () => {
  it("runs both CLIs' --help from the clone", () => {
    const run = userShell(readmeBlock(README, "root-clone-help"));
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^bounded-mcp-proxy 0\.0\.0: bound any MCP server's oversized tool results/,
    );
    expect(run.stdout).toMatch(/\nn8n-mcp-bounded 0\.0\.0/);
  });

  it("packs the seven published packages, installs the tarballs with npm, runs both --help and a bounded call", async () => {
    const run = userShell(readmeBlock(README, "root-tarballs"));
    expect({ status: run.status, stderr: run.status === 0 ? "" : run.stderr }).toEqual({
      status: 0,
      stderr: "",
    });
    const app = join(home, "try-bounded");
    const tarballs = readdirSync(join(app, "tarballs")).map((name) =>
      name.replace(/-0\.0\.0\.tgz$/, ""),
    );
    expect(tarballs.sort()).toEqual(PUBLISHED);
    expect(run.stdout).toMatch(/^bounded-mcp-proxy 0\.0\.0: bound any MCP server's oversized/m);
    expect(run.stdout).toMatch(/^n8n-mcp-bounded 0\.0\.0/m);

    const client = new Client({ name: "packed-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: join(app, "node_modules", ".bin", "bounded-mcp-proxy"),
        args: ["--store", "memory", "--", process.execPath, SERVER_FILESYSTEM, folder.dir],
        env: { PATH: process.env.PATH ?? "", BOUNDED_MCP_LOG_LEVEL: "warn" },
        cwd: app,
        stderr: "ignore",
      }),
    );
    try {
      const result = await client.callTool({
        name: "read_text_file",
        arguments: { path: folder.bigPath },
      });
      const envelope = structured<Envelope>(result);
      expect(envelope.responseMeta.artifact.id).toMatch(/^[A-Za-z0-9_-]{20,100}$/);
      expect(envelope.responseMeta.serializedBytes).toBeGreaterThan(512 * 1024);
    } finally {
      await client.close();
    }
  }, 600_000); // Packing seven packages and an npm install of n8n-mcp's tree from the cache.
});
