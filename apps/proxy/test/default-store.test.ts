import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, describe, expect, it } from "vitest";
import { createJsonFolder, row } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { connectStdioProxy } from "./support/proxy-process.js";
import { type Envelope, query, structured } from "./support/query.js";

const folder = createJsonFolder(1);
const cacheHomes: string[] = [];

function newCacheHome(): string {
  const dir = mkdtempSync(join(tmpdir(), "bounded-mcp-proxy-cache-"));
  cacheHomes.push(dir);
  return dir;
}

afterAll(() => {
  rmSync(folder.dir, { recursive: true, force: true });
  for (const dir of cacheHomes) rmSync(dir, { recursive: true, force: true });
});

const upstream = ["--", process.execPath, SERVER_FILESYSTEM, folder.dir];

async function readBig(client: Client): Promise<string> {
  const result = await client.callTool({
    name: "read_text_file",
    arguments: { path: folder.bigPath },
  });
  return structured<Envelope>(result).responseMeta.artifact.id;
}

async function withProxy<T>(
  args: readonly string[],
  environment: Record<string, string>,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const client = await connectStdioProxy(args, environment);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe("the default store of a stdio proxy", () => {
  it("is not the user's real cache folder during tests", () => {
    expect(process.env.XDG_CACHE_HOME?.startsWith(tmpdir())).toBe(true);
  });

  it("keeps artifacts in $XDG_CACHE_HOME/bounded-mcp, so a second process answers the first one's handle", async () => {
    const cache = newCacheHome();
    const environment = { XDG_CACHE_HOME: cache };
    const id = await withProxy(upstream, environment, readBig);
    const page = await withProxy(upstream, environment, (client) =>
      query(client, id, { responsePath: "/rows", pageSize: 2, fields: ["id", "name"] }),
    );
    expect(page.response).toEqual([
      { id: 0, name: row(0).name },
      { id: 1, name: row(1).name },
    ]);
    const dir = join(cache, "bounded-mcp");
    expect({
      folder: statSync(dir).mode & 0o777,
      keyFile: statSync(join(dir, "keys")).mode & 0o777,
      entries: readdirSync(dir).sort(),
    }).toEqual({ folder: 0o700, keyFile: 0o600, entries: ["artifacts", "keys"] });
    expect(readFileSync(join(dir, "keys"), "utf8")).toMatch(/^local:[0-9a-f]{64}\n$/);
  });

  it("gives two proxies starting at once one key ring: each answers the other's handle", async () => {
    const environment = { XDG_CACHE_HOME: newCacheHome() };
    const [first, second] = await Promise.all([
      connectStdioProxy(upstream, environment),
      connectStdioProxy(upstream, environment),
    ]);
    try {
      const [firstId, secondId] = await Promise.all([readBig(first), readBig(second)]);
      // The same bytes in the same (stdio) scope under the same key ring: the same id.
      expect(firstId).toBe(secondId);
      const answers = await Promise.all([
        query(second, firstId, { responsePath: "/rows", pageSize: 1, fields: ["id"] }),
        query(first, secondId, { responsePath: "/rows", pageSize: 1, fields: ["id"] }),
      ]);
      expect(answers.map((answer) => answer.response)).toEqual([[{ id: 0 }], [{ id: 0 }]]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("stays in memory with --store memory: a second process does not know the handle", async () => {
    const cache = newCacheHome();
    const environment = { XDG_CACHE_HOME: cache };
    const args = ["--store", "memory", ...upstream];
    const id = await withProxy(args, environment, readBig);
    const answer = await withProxy(args, environment, (client) => query(client, id));
    expect(answer.response).toMatchObject({
      error: { code: "INVALID_ARTIFACT_HANDLE", details: { reason: "unknown" } },
    });
    expect(readdirSync(cache)).toEqual([]);
  });
});
