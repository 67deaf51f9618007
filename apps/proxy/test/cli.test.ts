import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROXY_TABLE } from "../src/options/proxy-settings.js";
import { PROXY_CLI } from "./support/paths.js";
import { proxyEnvironment } from "./support/proxy-process.js";

const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

/** The built bin, as `npx bounded-mcp-proxy` runs it, with stdin closed. */
function runBin(args: string[], environment: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [PROXY_CLI, ...args], {
    env: proxyEnvironment(environment),
    encoding: "utf8",
    input: "",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the bounded-mcp-proxy bin's command line", () => {
  const help = runBin(["--help"]);

  it("prints --help on stdout and exits 0", () => {
    expect({ status: help.status, stderr: help.stderr }).toEqual({ status: 0, stderr: "" });
    expect(help.stdout).toMatch(
      /^bounded-mcp-proxy \S+: bound any MCP server's oversized tool results\n/,
    );
  });

  it.each(Object.entries(PROXY_TABLE))(
    "states %s in --help with its flag, variable, key and default",
    (name, row) => {
      const lines = help.stdout.split("\n");
      const at = lines.findIndex((line) =>
        line.startsWith(`  --${row.argument === null ? "[no-]" : ""}${row.flag} `),
      );
      expect(at).toBeGreaterThan(0);
      expect(lines[at + 1]).toMatch(new RegExp(`^ +env ${row.env}, key ${name}, default \\S`));
    },
  );

  it("states the limits and their relations in --help", () => {
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "limits: inlineBytes >= 4096; inlineBytes <= hardBytes; inlineBytes <= artifactMaxBytes; previewBytes < inlineBytes",
    );
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "limits: previewBytes >= 1024; previewBytes < inlineBytes",
    );
    expect(help.stdout.replace(/\s+/g, " ")).toContain("limits: queryWorkMs >= 1ms");
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "store fs needs storeDir; store s3 needs s3Bucket",
    );
  });

  it("prints --version and -v", () => {
    expect(runBin(["--version"])).toEqual({ status: 0, stdout: `${version}\n`, stderr: "" });
    expect(runBin(["-v"]).stdout).toBe(`${version}\n`);
  });

  it.each([
    [["--x"], {}, "unknown option --x (see --help)"],
    [
      ["--inline-bytes", "40", "--", "node", "s.js"],
      {},
      "--inline-bytes 40: must be at least 4096",
    ],
    [
      ["--", "node", "s.js"],
      { BOUNDED_MCP_INLINE_BYTES: "40" },
      "BOUNDED_MCP_INLINE_BYTES=40: must be at least 4096",
    ],
    [
      ["--store", "fs", "--", "node", "s.js"],
      {},
      "--store fs: needs --store-dir (the folder of the fs store)",
    ],
    [["--query-work-ms", "0", "--", "node", "s.js"], {}, "--query-work-ms 0: must be at least 1ms"],
  ])("exits 2 with one line on stderr for %j", (args, environment, message) => {
    expect(runBin(args, environment)).toEqual({
      status: 2,
      stdout: "",
      stderr: `bounded-mcp-proxy: ${message}\n`,
    });
  });
});
