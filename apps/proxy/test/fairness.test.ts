import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder, row } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import {
  connectHttpClient,
  type HttpProxyProcess,
  startHttpProxy,
} from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";
import { TOKENS, writeTokensFile } from "./support/tokens.js";

// Two principals (two bearer tokens) through the real proxy over streamable HTTP: alice tries to
// take every session and the whole store; bob must still get a session and keep his artifact.

const MIB = 1024 * 1024;
const folder = createJsonFolder(1);
const tokensFile = writeTokensFile(folder.dir);
/** Distinct documents of about 1 MiB each: more of them than the whole store holds. */
const PARTS = 10;
const partPath = (index: number) => join(folder.dir, `part-${index}.json`);
const largePath = join(folder.dir, "large.json");

/** Writes `{kind, rows}` of about `bytes` bytes (compact JSON); returns its exact size. */
function writeDocument(path: string, kind: string, bytes: number): number {
  const rowBytes = Buffer.byteLength(JSON.stringify(row(0)));
  const rows = Array.from({ length: Math.ceil(bytes / rowBytes) }, (_, index) => row(index));
  const text = JSON.stringify({ kind, rows });
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}

let proxy: HttpProxyProcess;
const clients: Client[] = [];
let alice: Client | undefined;
let bob: Client | undefined;

async function client(token: string): Promise<Client> {
  const connected = await connectHttpClient(proxy.url, token);
  clients.push(connected);
  return connected;
}

async function read(caller: Client, path: string) {
  return structured<Envelope & { error?: unknown }>(
    await caller.callTool({ name: "read_text_file", arguments: { path } }),
  );
}

beforeAll(async () => {
  for (let index = 0; index < PARTS; index += 1) {
    writeDocument(partPath(index), `part-${index}`, 0.9 * MIB);
  }
  // Over alice's 2 MiB share, under --artifact-max-bytes 6MiB.
  writeDocument(largePath, "large", 3 * MIB);
  proxy = await startHttpProxy([
    "--listen",
    "http://127.0.0.1:0/mcp",
    "--auth-tokens",
    tokensFile,
    "--max-sessions",
    "8",
    "--max-sessions-per-principal",
    "2",
    "--store",
    "memory",
    "--quota-bytes",
    "8MiB",
    "--artifact-max-bytes",
    "6MiB",
    "--quota-per-principal",
    "2MiB",
    // No parse cache: every query reads the store, so an evicted artifact cannot hide behind it.
    "--parse-cache-bytes",
    "0",
    "--",
    process.execPath,
    SERVER_FILESYSTEM,
    folder.dir,
  ]);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((connected) => connected.close()));
  await proxy?.stop();
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("bounded-mcp-proxy with two principals over HTTP", () => {
  it("refuses a principal's session over --max-sessions-per-principal with 429 while another principal still gets one", async () => {
    alice = await client(TOKENS.alice);
    await client(TOKENS.alice);
    const refused = await client(TOKENS.alice).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 429,
      message: expect.stringContaining(
        '"message":"too many sessions for this principal (--max-sessions-per-principal 2): close one, or wait until one is idle for --idle-timeout"',
      ),
    });
    bob = await client(TOKENS.bob);
    expect((await bob.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("keeps bob's artifact while alice's results fill her share, and refuses a result over the share with ARTIFACT_TOO_LARGE naming it", async () => {
    alice ??= await client(TOKENS.alice);
    bob ??= await client(TOKENS.bob);
    const bobId = (await read(bob, folder.bigPath)).responseMeta.artifact.id;
    const aliceIds: string[] = [];
    // Ten distinct 1 MiB results: more than the whole 8 MiB store, within her 2 MiB share.
    for (let index = 0; index < PARTS; index += 1) {
      aliceIds.push((await read(alice, partPath(index))).responseMeta.artifact.id);
    }
    expect((await query(bob, bobId, { describe: true })).shape).toMatchObject({
      type: "array",
      length: folder.rowCount,
    });
    // Her share held only her newest results: her oldest one went, nobody else's.
    expect((await query(alice, aliceIds[0]!, { describe: true })).response).toMatchObject({
      error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } },
    });
    expect((await query(alice, aliceIds.at(-1)!, { describe: true })).shape).toMatchObject({
      type: "array",
    });
    const large = await read(alice, largePath);
    const byteLength = (large as unknown as { responseMeta: { serializedBytes: number } })
      .responseMeta.serializedBytes;
    expect(large.error).toEqual({
      code: "ARTIFACT_TOO_LARGE",
      message: `The tool result is ${byteLength} bytes, over this caller's share of the artifact store of ${2 * MIB} bytes, so it was neither stored nor inlined. Call the tool again with narrower arguments (a filter, a smaller page, fewer fields).`,
      details: { byteLength, limit: 2 * MIB, limitName: "quotaPerPrincipal" },
    });
    expect((await query(bob, bobId, { describe: true })).shape).toMatchObject({ type: "array" });
  });
});
