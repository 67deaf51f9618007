import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type Envelope, structured } from "./support/query.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PUBLISHED = [
  "packages/contract",
  "packages/query-core",
  "packages/stores",
  "packages/mcp-adapter",
  "packages/relay",
  "apps/proxy",
  "apps/n8n-mcp-bounded",
];
const work = mkdtempSync(join(tmpdir(), "bounded-mcp-packed-"));
const folder = createJsonFolder(1);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(folder.dir, { recursive: true, force: true });
});

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

describe("installing the packed packages without a registry publish", () => {
  it("packs every published package, installs the proxy's tarballs with npm, and runs --help and a bounded call", async () => {
    const tarballs = join(work, "tarballs");
    const filters = PUBLISHED.flatMap((path) => ["--filter", `./${path}`]);
    execFileSync(
      "npx",
      ["--yes", "pnpm@12.4.2", "-r", ...filters, "pack", "--pack-destination", tarballs],
      { cwd: ROOT, env: npmEnvironment(), stdio: "pipe" },
    );
    const packed = readdirSync(tarballs).sort();
    expect(packed).toHaveLength(PUBLISHED.length);
    // n8n-mcp-bounded is packed but not installed: its n8n-mcp dependency (a native sqlite
    // build and hundreds of packages) would take minutes.
    const install = packed.filter((name) => !name.startsWith("n8n-mcp-bounded"));
    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), '{"name":"packed-try","private":true}');
    execFileSync(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        ...install.map((name) => join(tarballs, name)),
      ],
      { cwd: app, env: npmEnvironment(), stdio: "pipe" },
    );
    const bin = join(app, "node_modules", ".bin", "bounded-mcp-proxy");
    const help = execFileSync(bin, ["--help"], { encoding: "utf8" });
    expect(help).toMatch(
      /^bounded-mcp-proxy 0\.0\.0: bound any MCP server's oversized tool results/,
    );

    const client = new Client({ name: "packed-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: bin,
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
  }, 240_000); // Packing seven packages and an npm install of 151 packages from the cache: ~30 s here.
});
