import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { connectStdioProxy } from "./support/proxy-process.js";
import { query } from "./support/query.js";

// The upstream file: rows holding a secret the hook replaces, and a marker it leaves alone (so
// the raw store can be checked for encryption too).
const SECRET = "ghp_5bT9secretTokenValue01";
const MARKER = "visible-marker-9f2c";
const work = mkdtempSync(join(tmpdir(), "bounded-mcp-proxy-redact-"));
const dataDir = join(work, "data");
const bigPath = join(dataDir, "accounts.json");
const hooksPath = join(work, "redact-hooks.mjs");
const throwingHooksPath = join(work, "throwing-hooks.mjs");
const s3Directory = join(work, "s3rver");
const BUCKET = "artifacts";
const KEYS = `redact:${"7c".repeat(32)}`;
let s3: S3rver;
let s3Port = 0;
const clients: Client[] = [];

beforeAll(async () => {
  for (const dir of [dataDir, s3Directory]) mkdirSync(dir);
  const rows = Array.from({ length: 2_000 }, (_, index) => ({
    id: index,
    owner: `user-${index}`,
    token: SECRET,
    note: `${MARKER} ${index} uses ${SECRET} for the API`,
  }));
  writeFileSync(bigPath, JSON.stringify({ kind: "accounts", rows }, null, 1));
  // The hooks modules the proxy loads with --hooks, written here so the test owns every line.
  writeFileSync(
    hooksPath,
    `export default { redact: (text) => text.replaceAll(${JSON.stringify(SECRET)}, "[redacted]") };\n`,
  );
  writeFileSync(
    throwingHooksPath,
    `export default { redact: () => { throw new Error("no vault"); }, tools: {} };\n`,
  );
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: s3Directory,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  ({ port: s3Port } = await s3.run());
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Every byte of every file under `dir` (recursively), as latin1 text. */
function rawTree(dir: string): string {
  return readdirSync(dir)
    .map((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? rawTree(path) : readFileSync(path, "latin1");
    })
    .join("\n");
}

async function proxy(storeArgs: string[], hooks: string, environment: Record<string, string> = {}) {
  const client = await connectStdioProxy(
    ["--hooks", hooks, ...storeArgs, "--", process.execPath, SERVER_FILESYSTEM, dataDir],
    { BOUNDED_MCP_KEYS: KEYS, ...environment },
  );
  clients.push(client);
  return client;
}

const S3_ENVIRONMENT = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
  AWS_RESPONSE_CHECKSUM_VALIDATION: "WHEN_REQUIRED",
};

const stores: Record<
  string,
  () => { args: string[]; raw: () => string; environment?: Record<string, string> }
> = {
  memory: () => ({ args: ["--store", "memory"], raw: () => "" }),
  "fs, encrypted": () => {
    const dir = mkdtempSync(join(work, "fs-"));
    return { args: ["--store-dir", dir, "--encrypt-at-rest"], raw: () => rawTree(dir) };
  },
  "s3, encrypted": () => ({
    args: [
      "--store",
      "s3",
      "--s3-bucket",
      BUCKET,
      "--s3-endpoint",
      `http://127.0.0.1:${s3Port}`,
      "--s3-region",
      "us-east-1",
      "--s3-force-path-style",
      "--encrypt-at-rest",
    ],
    raw: () => rawTree(join(s3Directory, BUCKET)),
    environment: S3_ENVIRONMENT,
  }),
};

describe("bounded-mcp-proxy --hooks with a redact export", () => {
  for (const [label, store] of Object.entries(stores)) {
    it(`keeps the secret out of the envelope, the answers and the store, which holds no clear payload (${label})`, async () => {
      const { args, raw, environment } = store();
      const client = await proxy(args, hooksPath, environment);
      const result = await client.callTool({
        name: "read_text_file",
        arguments: { path: bigPath },
      });
      const id = (result.structuredContent as { responseMeta: { artifact: { id: string } } })
        .responseMeta.artifact.id;
      const answers = [
        result,
        await query(client, id, { responsePath: "/rows", pageSize: 50 }),
        await query(client, id, { responsePath: "/rows", fields: ["token", "note"], pageSize: 50 }),
        await query(client, id, { textSearch: { query: "ghp_" } }),
      ].map((answer) => JSON.stringify(answer));
      const stored = raw();
      expect({
        answersWithSecret: answers.filter((answer) => answer.includes(SECRET)).length,
        answersWithMarker: answers.filter((answer) => answer.includes(MARKER)).length,
        storedSecret: stored.includes(SECRET),
        storedMarker: stored.includes(MARKER),
        storedAnything: label === "memory" || stored.length > 10_000,
      }).toEqual({
        answersWithSecret: 0,
        answersWithMarker: 3,
        storedSecret: false,
        storedMarker: false,
        storedAnything: true,
      });
    });
  }

  it("answers the bounded redaction error when the hook throws, and stores nothing", async () => {
    const dir = mkdtempSync(join(work, "fs-throwing-"));
    const client = await proxy(["--store-dir", dir], throwingHooksPath);
    const result = await client.callTool({ name: "read_text_file", arguments: { path: bigPath } });
    const structured = result.structuredContent as {
      error: unknown;
      data: unknown;
      success: boolean;
    };
    expect({
      isError: result.isError,
      success: structured.success,
      data: structured.data,
      error: structured.error,
      files: readdirSync(dir),
      leaks: JSON.stringify(result).includes(SECRET),
    }).toEqual({
      isError: true,
      success: false,
      data: null,
      error: {
        code: "ARTIFACT_STORE_UNAVAILABLE",
        message:
          "This oversized tool result could not be redacted (the redaction hook threw), so it was neither stored nor inlined.",
        details: { retryable: true, reason: "redaction_failed" },
      },
      files: [],
      leaks: false,
    });
  });
});
