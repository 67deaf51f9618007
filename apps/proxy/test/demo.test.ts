/**
 * The README's first command runs tooling/scripts/demo.mjs after the build: its output is the
 * demo's own lines on stdout and nothing on stderr (no proxy log, no AWS SDK warning: the demo
 * uses the memory store, and the S3 SDK is loaded only for --store s3).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DEMO = fileURLToPath(new URL("../../../tooling/scripts/demo.mjs", import.meta.url));

describe("npm run demo (after the build)", () => {
  it("prints every section on stdout, nothing on stderr, and exits 0", async () => {
    const child = spawn(process.execPath, [DEMO], {
      env: { PATH: process.env.PATH ?? "", XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, "close");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout.match(/^=== \d+\./gm)?.length).toBeGreaterThanOrEqual(6);
  });
});
