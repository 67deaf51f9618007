import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type HttpProxyProcess, startHttpProxy } from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";
import { TOKENS, writeTokensFile } from "./support/tokens.js";

// SPEC.md §9 rule 6 through the real proxy over streamable HTTP with two principals (two bearer
// tokens): while alice's one-character textSearch scans a 60 MiB string (60 million matches to
// count, sliced by runQueryAsync), bob's cheap queries (a page of 2 rows of a 1 MiB artifact) are answered before hers.

const TEXT_CHARS = 60 * 1024 * 1024;
/** Long enough that alice's scan never stops at its work limit: her call is one whole scan. */
const QUERY_WORK_MS = 120_000;
/** Bob's queries answered one after another while alice's single call runs. */
const BOB_QUERIES = 3;

const folder = createJsonFolder(1);
const tokensFile = writeTokensFile(folder.dir);
const longPath = join(folder.dir, "long.json");
let proxy: HttpProxyProcess;
const clients: Client[] = [];

/**
 * An SDK client of the proxy with `token`; `onHeaders` runs when the response headers of a POST
 * whose body includes `marker` arrive, which the proxy's transport sends only once the request
 * is with the tool handler: at its answer, or when the answer takes over 100 ms (the reply then
 * becomes an SSE stream), as alice's whole-string scan does.
 */
async function connect(
  token: string,
  marker?: { text: string; onHeaders: () => void },
): Promise<Client> {
  const fetchWithMarker: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (marker !== undefined && typeof init?.body === "string" && init.body.includes(marker.text)) {
      marker.onHeaders();
    }
    return response;
  };
  const client = new Client({ name: "head-of-line-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(proxy.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: fetchWithMarker,
    }),
  );
  clients.push(client);
  return client;
}

async function artifactOf(client: Client, path: string): Promise<string> {
  const result = structured<Envelope>(
    await client.callTool({ name: "read_text_file", arguments: { path } }, undefined, {
      timeout: QUERY_WORK_MS,
    }),
  );
  return result.responseMeta.artifact.id;
}

beforeAll(async () => {
  writeFileSync(longPath, JSON.stringify({ text: "x".repeat(TEXT_CHARS) }));
  proxy = await startHttpProxy([
    "--listen",
    "http://127.0.0.1:0/mcp",
    "--auth-tokens",
    tokensFile,
    "--store",
    "memory",
    "--artifact-max-bytes",
    "128MiB",
    "--quota-bytes",
    "512MiB",
    "--query-work-ms",
    `${QUERY_WORK_MS}ms`,
    "--",
    process.execPath,
    SERVER_FILESYSTEM,
    folder.dir,
  ]);
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await proxy?.stop();
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("bounded-mcp-proxy head-of-line bound over HTTP (§9 rule 6)", () => {
  it(
    "answers bob's small pages while alice's textSearch over a 60 MiB string is still scanning",
    async () => {
      let aliceStarted!: () => void;
      const started = new Promise<void>((resolve) => {
        aliceStarted = resolve;
      });
      const alice = await connect(TOKENS.alice, { text: '"textSearch"', onHeaders: aliceStarted });
      const bob = await connect(TOKENS.bob);
      const longId = await artifactOf(alice, longPath);
      const bobId = await artifactOf(bob, folder.bigPath);
      // Parsed before the race (the parse cache keeps it), so only the scan runs while bob asks.
      expect(
        (await query(alice, longId, { responsePath: "/text", describe: true })).shape,
      ).toMatchObject({
        type: "string",
      });

      const order: string[] = [];
      const search = alice
        .callTool(
          {
            name: QUERY_TOOL_NAME,
            arguments: { artifactId: longId, responsePath: "/text", textSearch: { query: "x" } },
          },
          undefined,
          { timeout: QUERY_WORK_MS * 2 },
        )
        .then((result) => {
          order.push("alice answered");
          return structured<Record<string, unknown> & { responseMeta: Record<string, unknown> }>(
            result,
          );
        });
      await started;
      const bobPages: unknown[] = [];
      for (let index = 0; index < BOB_QUERIES; index += 1) {
        const page = await query(bob, bobId, { responsePath: "/rows", pageSize: 2 });
        order.push("bob answered");
        bobPages.push(page.response);
      }
      const aliceAnswer = await search;

      expect(order).toEqual([...Array(BOB_QUERIES).fill("bob answered"), "alice answered"]);
      expect(bobPages).toEqual(
        Array(BOB_QUERIES).fill([
          expect.objectContaining({ id: 0, name: "user-0" }),
          expect.objectContaining({ id: 1, name: "user-1" }),
        ]),
      );
      // Alice's one call scanned the whole string: every character counted, nothing cut short.
      expect(aliceAnswer.responseMeta).toMatchObject({
        complete: false,
        truncationReason: "match_limit",
        totalCount: TEXT_CHARS,
      });
    },
    QUERY_WORK_MS * 3,
  );
});
