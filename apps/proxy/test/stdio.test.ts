import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder, row } from "./support/big-json.js";
import { childPids, isAlive } from "./support/child-processes.js";
import { completeCallSignalledMidway } from "./support/long-operation.js";
import { CHATTY_HOOKS, PROXY_CLI, SERVER_EVERYTHING, SERVER_FILESYSTEM } from "./support/paths.js";
import { connectDirect, connectStdioProxy, proxyEnvironment } from "./support/proxy-process.js";
import { type Envelope, expectedEnvelope, query, structured } from "./support/query.js";
import { INITIALIZE, spawnRawStdioProxy } from "./support/raw-stdio.js";

/** 2,000 environment variables, so server-everything's get-env returns a large JSON object. */
const ROWS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 2000 }, (_, index) => [
    `ROW_${String(index).padStart(4, "0")}`,
    `${["core", "edge", "data"][index % 3]} member ${index} ${"x".repeat(60)}`,
  ]),
);

const folder = createJsonFolder(3);
let files: Client;
let directFiles: Client;
let everything: Client;
let direct: Client;

beforeAll(async () => {
  [files, directFiles, everything, direct] = await Promise.all([
    connectStdioProxy(["--", process.execPath, SERVER_FILESYSTEM, folder.dir]),
    connectDirect(process.execPath, [SERVER_FILESYSTEM, folder.dir]),
    connectStdioProxy(["--", process.execPath, SERVER_EVERYTHING, "stdio"], ROWS),
    connectDirect(process.execPath, [SERVER_EVERYTHING, "stdio"]),
  ]);
});

afterAll(async () => {
  await Promise.all([files?.close(), directFiles?.close(), everything?.close(), direct?.close()]);
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("bounded-mcp-proxy over stdio", () => {
  it.each([
    ["server-everything", (): [Client, Client] => [direct, everything]],
    ["server-filesystem", (): [Client, Client] => [directFiles, files]],
  ] as const)(
    "lists %s's tools, outputSchemas widened, plus query_response_artifact",
    async (_, pair) => {
      const [upstreamClient, proxiedClient] = pair();
      const upstream = (await upstreamClient.listTools()).tools;
      const proxied = (await proxiedClient.listTools()).tools;
      expect(proxied.map((tool) => tool.name)).toEqual([
        ...upstream.map((tool) => tool.name),
        QUERY_TOOL_NAME,
      ]);
      for (const [index, tool] of upstream.entries()) {
        const { outputSchema } = proxied[index]!;
        expect({ ...proxied[index], outputSchema: undefined }).toEqual({
          ...tool,
          outputSchema: undefined,
        });
        if (tool.outputSchema === undefined) expect(outputSchema).toBeUndefined();
        else expect(outputSchema).toMatchObject({ type: "object", anyOf: expect.any(Array) });
      }
    },
  );

  it("answers small calls exactly as the upstream does", async () => {
    for (const call of [
      { name: "echo", arguments: { message: "hello through the proxy" } },
      { name: "get-sum", arguments: { a: 2, b: 40 } },
      { name: "get-structured-content", arguments: { location: "New York" } },
    ]) {
      expect(await everything.callTool(call)).toEqual(await direct.callTool(call));
    }
  });

  it("answers a small file read exactly as server-filesystem does", async () => {
    const call = { name: "read_text_file", arguments: { path: folder.smallPath } };
    expect(await files.callTool(call)).toEqual(await directFiles.callTool(call));
  });

  it("bounds a multi-MiB JSON file read into a small envelope with a resource link", async () => {
    const text = readFileSync(folder.bigPath, "utf8");
    const result = (await files.callTool({
      name: "read_text_file",
      arguments: { path: folder.bigPath },
    })) as { content: { type: string }[] };
    const envelope = structured<Envelope>(result);
    // The file's text is the payload (it is JSON): the preview shows a sample of its first rows,
    // long strings cut and marked.
    const shown = (envelope.data as { rows: unknown[] }).rows.length - 1;
    expect(shown).toBeGreaterThan(0);
    const sampled = (index: number) => {
      const { notes, ...rest } = row(index);
      return { ...rest, notes: `${notes.slice(0, 100)}…[${notes.length} chars total]` };
    };
    expect(envelope).toEqual(
      expectedEnvelope(Buffer.byteLength(text), {
        kind: "export",
        rows: [
          ...Array.from({ length: shown }, (_, index) => sampled(index)),
          { _omittedItems: folder.rowCount - shown },
        ],
      }),
    );
    expect(envelope.responseMeta.artifact).toMatchObject({
      responseRoot: "/rows",
      primaryPaths: ["/rows"],
    });
    expect(JSON.stringify(result).length).toBeLessThan(16 * 1024);
    expect(result.content.map((block) => block.type)).toEqual(["text", "resource_link"]);
  });

  describe("queries the stored file as JSON", () => {
    let artifactId: string;
    beforeAll(async () => {
      const result = await files.callTool({
        name: "read_text_file",
        arguments: { path: folder.bigPath },
      });
      artifactId = structured<Envelope>(result).responseMeta.artifact.id;
    });

    it("describes its rows", async () => {
      expect(await query(files, artifactId, { describe: true })).toEqual({
        artifactId,
        responsePath: "/rows",
        shape: {
          type: "array",
          length: folder.rowCount,
          sampledItems: 20,
          itemKeys: [
            { name: "id", pointer: "/id", type: "number" },
            { name: "name", pointer: "/name", type: "string", length: 7 },
            { name: "team", pointer: "/team", type: "string", length: 4 },
            { name: "active", pointer: "/active", type: "boolean" },
            {
              name: "notes",
              pointer: "/notes",
              type: "string",
              // The longest of the 20 sampled items.
              length: row(19).notes.length,
            },
          ],
        },
        responseMeta: expect.objectContaining({ contractVersion: 3, truncated: false }),
      });
    });

    it("filters and projects a page, then follows the cursor to the next one", async () => {
      const request = {
        responsePath: "/rows",
        filters: [
          { path: "/team", op: "eq", value: "edge" },
          { path: "/active", value: false },
        ],
        fields: ["id", "name"],
        pageSize: 3,
      };
      const matching = Array.from({ length: folder.rowCount }, (_, index) => row(index))
        .filter((item) => item.team === "edge" && !item.active)
        .map(({ id, name }) => ({ id, name }));
      const first = await query(files, artifactId, request);
      expect(first.response).toEqual(matching.slice(0, 3));
      expect(first.responseMeta).toMatchObject({
        truncationReason: "page_limit",
        pageUnit: "items",
        returnedCount: 3,
        totalCount: matching.length,
        remainingCount: matching.length - 3,
        nextCursor: expect.any(String),
        fieldsResolved: { id: 3, name: 3 },
      });
      const second = await query(files, artifactId, {
        ...request,
        cursor: first.responseMeta.nextCursor,
      });
      expect(second.response).toEqual(matching.slice(3, 6));
      expect(second.responseMeta).toMatchObject({ remainingCount: matching.length - 6 });
    });

    it("finds a value by text search", async () => {
      const search = await query(files, artifactId, { textSearch: { query: "user-4242" } });
      expect(search.response).toEqual([
        {
          pointer: "/rows/4242/name",
          offset: 0,
          context: "user-4242",
          contextStart: 0,
          contextEnd: 9,
        },
      ]);
      expect(search.responseMeta).toMatchObject({
        returnedCount: 1,
        totalCount: 1,
        pageUnit: "matches",
      });
    });
  });

  it("pages and filters a large JSON object result with authenticated cursors", async () => {
    const envelope = structured<Envelope>(await everything.callTool({ name: "get-env" }));
    const { id } = envelope.responseMeta.artifact;
    const request = {
      objectMode: "entries",
      filters: [{ path: "/value", op: "contains", value: "edge member" }],
      pageSize: 5,
    };
    const first = await query(everything, id, request);
    const edgeRows = Object.entries(ROWS).filter(([, value]) => value.startsWith("edge"));
    expect(first.response).toEqual(edgeRows.slice(0, 5).map(([key, value]) => ({ key, value })));
    expect(first.responseMeta).toMatchObject({
      returnedCount: 5,
      totalCount: edgeRows.length,
      remainingCount: edgeRows.length - 5,
      nextCursor: expect.any(String),
    });
    const second = await query(everything, id, {
      ...request,
      cursor: first.responseMeta.nextCursor,
    });
    expect(second.response).toEqual(edgeRows.slice(5, 10).map(([key, value]) => ({ key, value })));
    const forged = await query(everything, id, {
      ...request,
      pageSize: 6,
      cursor: first.responseMeta.nextCursor,
    });
    expect(forged.response).toMatchObject({ error: { code: "INVALID_RESPONSE_CURSOR" } });
  });

  it("relays a resource read and a prompt unchanged", async () => {
    const [resource] = (await direct.listResources()).resources;
    expect(await everything.listResources()).toEqual(await direct.listResources());
    expect(await everything.readResource({ uri: resource!.uri })).toEqual(
      await direct.readResource({ uri: resource!.uri }),
    );
    expect(await everything.getPrompt({ name: "simple-prompt" })).toEqual(
      await direct.getPrompt({ name: "simple-prompt" }),
    );
  });

  it("writes nothing but protocol to stdout, even with debug logs, a chatty upstream and console.log in hooks", async () => {
    const proxy = spawnRawStdioProxy(
      [
        "--log-level",
        "debug",
        "--hooks",
        CHATTY_HOOKS,
        "--",
        process.execPath,
        SERVER_EVERYTHING,
        "stdio",
      ],
      { BOUNDED_MCP_LOG_LEVEL: "debug" },
    );
    proxy.send(INITIALIZE);
    proxy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    proxy.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get-env", arguments: {} },
    });
    await new Promise<void>((resolve) => {
      proxy.child.stdout.on("data", () => {
        if (proxy.stdout().includes('"id":2')) resolve();
      });
    });
    proxy.child.stdin.end();
    const code = await proxy.exited;
    const stdout = proxy.stdout();
    const stderr = proxy.stderr();
    const lines = stdout.split("\n").filter((line) => line !== "");
    expect(lines.map((line) => JSON.parse(line).jsonrpc)).toEqual(lines.map(() => "2.0"));
    expect(lines.map((line) => JSON.parse(line).id).filter((id) => id !== undefined)).toEqual([
      1, 2,
    ]);
    expect(stderr).toContain('"msg":"[upstream] ');
    for (const line of ["chatty hooks loaded", "chatty hook saw get-env", "chatty hook info"]) {
      expect(stderr).toContain(`${line}\n`);
    }
    expect(code).toBe(0);
  });

  it("on SIGTERM lets the call in flight finish, then closes the upstream child and exits", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PROXY_CLI, "--", process.execPath, SERVER_EVERYTHING, "stdio"],
      env: proxyEnvironment(),
      stderr: "ignore",
    });
    const client = new Client({ name: "proxy-test", version: "1.0.0" });
    await client.connect(transport);
    const proxyPid = transport.pid!;
    const upstreamChildren = childPids(proxyPid);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await completeCallSignalledMidway(client, 1, () => process.kill(proxyPid, "SIGTERM"));
    await closed;
    expect(upstreamChildren).toHaveLength(1);
    expect([proxyPid, ...upstreamChildren].filter(isAlive)).toEqual([]);
  });

  it("exits with code 1 after answering the initialize with the upstream's last stderr lines when it fails to start", async () => {
    const proxy = spawnRawStdioProxy(
      ["--store", "memory", "--", process.execPath, SERVER_FILESYSTEM, "/nonexistent/folder"],
      { BOUNDED_MCP_LOG_LEVEL: "error" },
    );
    proxy.send(INITIALIZE);
    expect(await proxy.exited).toBe(1);
    const stdout = proxy.stdout();
    expect(
      stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32603,
          message: `the upstream could not be connected: MCP error -32000: upstream "node" exited with code 1 while initialize was in flight; its last stderr lines:
Warning: Cannot access directory /nonexistent/folder, skipping
Error: None of the specified directories are accessible`,
        },
      },
    ]);
    expect(proxy.stderr()).toContain('"msg":"the upstream could not be started: exiting"');
  });

  it.each([
    [
      "with stdin closed at once",
      (proxy: ReturnType<typeof spawnRawStdioProxy>) => proxy.child.stdin.end(),
    ],
    [
      "after an initialize",
      (proxy: ReturnType<typeof spawnRawStdioProxy>) => proxy.send(INITIALIZE),
    ],
  ])(
    "exits with code 1 and one clear line when the upstream command does not exist, %s",
    async (_, act) => {
      const proxy = spawnRawStdioProxy(["--", "no-such-mcp-server-command"], {});
      act(proxy);
      expect(await proxy.exited).toBe(1);
      expect({ stdout: proxy.stdout(), stderr: proxy.stderr() }).toEqual({
        stdout: "",
        stderr:
          'bounded-mcp-proxy: upstream command "no-such-mcp-server-command" was not found: is it installed and on PATH?\n',
      });
    },
  );

  it.each([
    [
      ["--inline-bytes", "lots"],
      "--inline-bytes lots: expected a byte count such as 32768, 32KiB or 64MiB",
    ],
    [["--store", "s3"], "--store s3: needs --s3-bucket (the bucket of the s3 store)"],
    [
      ["--listen", "http://127.0.0.1:0/mcp", "--auth-tokens", "/nonexistent/tokens.json"],
      "--auth-tokens /nonexistent/tokens.json: cannot read it (ENOENT: no such file or directory, open '/nonexistent/tokens.json')",
    ],
  ])("exits with code 2 and one line naming the option: %j", (flags, message) => {
    const run = spawnSync(process.execPath, [PROXY_CLI, ...flags, "--", "node", "server.js"], {
      env: proxyEnvironment(),
      encoding: "utf8",
    });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr: `bounded-mcp-proxy: ${message}\n`,
    });
  });
});
