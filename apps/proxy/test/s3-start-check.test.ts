import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROXY_CLI, SERVER_EVERYTHING } from "./support/paths.js";
import { proxyEnvironment } from "./support/proxy-process.js";

const s3Directory = mkdtempSync(join(tmpdir(), "bounded-mcp-proxy-s3check-"));
let s3: S3rver;
let endpoint: string;

const S3_ENVIRONMENT = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

/** A port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the proxy over stdio with stdin closed at once; resolves with its exit code and stderr. */
function runProxy(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [PROXY_CLI, ...args], {
    env: proxyEnvironment(S3_ENVIRONMENT),
    stdio: ["pipe", "ignore", "pipe"],
  });
  child.stdin.end();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stderr })));
}

const s3Args = (bucket: string, at: string) => [
  "--store",
  "s3",
  "--s3-bucket",
  bucket,
  "--s3-endpoint",
  at,
  "--s3-region",
  "us-east-1",
  "--",
  process.execPath,
  SERVER_EVERYTHING,
  "stdio",
];

beforeAll(async () => {
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: s3Directory,
    silent: true,
    configureBuckets: [{ name: "present" }],
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await s3?.close();
  rmSync(s3Directory, { recursive: true, force: true });
});

describe("--store s3 at start", () => {
  it("exits 1 with one clear line when the bucket does not exist", async () => {
    expect(await runProxy(s3Args("absent", endpoint))).toEqual({
      code: 1,
      stderr: `bounded-mcp-proxy: the S3 store cannot be reached (--s3-bucket absent at ${endpoint}): no such bucket\n`,
    });
  });

  it("exits 1 with one clear line when nothing listens at the endpoint", async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await runProxy(s3Args("present", closed));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^bounded-mcp-proxy: the S3 store cannot be reached \\(--s3-bucket present at ${closed}\\): .*ECONNREFUSED.*\\n$`,
      ),
    );
  });

  it("starts when the bucket answers (exit 0 once stdin is closed)", async () => {
    const { code, stderr } = await runProxy(s3Args("present", endpoint));
    expect({ code, refused: stderr.includes("cannot be reached") }).toEqual({
      code: 0,
      refused: false,
    });
  });
});
