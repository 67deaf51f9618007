import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import {
  connectHttpClient,
  type HttpProxyProcess,
  startHttpProxy,
} from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";
import { TOKENS, writeTokensFile } from "./support/tokens.js";

const BUCKET = "artifacts";
const KEYS = `replicas:${"5a".repeat(32)}`;
const folder = createJsonFolder(2);
const s3Directory = mkdtempSync(join(tmpdir(), "bounded-mcp-proxy-s3rver-"));
let s3: S3rver;
let replicas: HttpProxyProcess[] = [];
const clients: Client[] = [];

async function connect(replica: HttpProxyProcess, token: string): Promise<Client> {
  const client = await connectHttpClient(replica.url, token);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: s3Directory,
    silent: true,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  const tokens = writeTokensFile(folder.dir);
  const start = () =>
    startHttpProxy(
      [
        "--listen",
        "http://127.0.0.1:0/mcp",
        "--auth-tokens",
        tokens,
        "--store",
        "s3",
        "--s3-bucket",
        BUCKET,
        "--s3-endpoint",
        `http://127.0.0.1:${port}`,
        "--s3-region",
        "us-east-1",
        "--s3-force-path-style",
        "--",
        process.execPath,
        SERVER_FILESYSTEM,
        folder.dir,
      ],
      {
        BOUNDED_MCP_KEYS: KEYS,
        AWS_ACCESS_KEY_ID: "S3RVER",
        AWS_SECRET_ACCESS_KEY: "S3RVER",
        // s3rver stores streamed uploads corrupted unless checksums are only sent when required.
        AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
        AWS_RESPONSE_CHECKSUM_VALIDATION: "WHEN_REQUIRED",
      },
    );
  replicas = await Promise.all([start(), start()]);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await s3?.close();
  rmSync(s3Directory, { recursive: true, force: true });
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("two proxy replicas on one S3 bucket with one BOUNDED_MCP_KEYS", () => {
  it("serve each other's artifacts and cursors, still per principal", async () => {
    const [a, b] = replicas as [HttpProxyProcess, HttpProxyProcess];
    const [aliceOnA, aliceOnB, bobOnB] = await Promise.all([
      connect(a, TOKENS.alice),
      connect(b, TOKENS.alice),
      connect(b, TOKENS.bob),
    ]);
    const envelope = structured<Envelope>(
      await aliceOnA.callTool({ name: "read_text_file", arguments: { path: folder.bigPath } }),
    );
    const { id } = envelope.responseMeta.artifact;

    const request = { textSearch: { query: "user-1" }, pageSize: 3 };
    const firstOnB = await query(aliceOnB, id, request);
    expect(firstOnB.responseMeta).toMatchObject({
      returnedCount: 3,
      truncated: true,
      nextCursor: expect.any(String),
    });
    const secondOnA = await query(aliceOnA, id, {
      ...request,
      cursor: firstOnB.responseMeta.nextCursor,
    });
    const secondOnB = await query(aliceOnB, id, {
      ...request,
      cursor: firstOnB.responseMeta.nextCursor,
    });
    expect(secondOnA).toEqual(secondOnB);
    expect(secondOnA.responseMeta).toMatchObject({ returnedCount: 3 });
    expect(secondOnA.response).not.toEqual(firstOnB.response);

    expect((await query(bobOnB, id, { describe: true })).response).toMatchObject({
      error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } },
    });
  });
});
