import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { childPids, isAlive } from "./support/child-processes.js";
import { PROXY_CLI, SERVER_EVERYTHING, SERVER_FILESYSTEM } from "./support/paths.js";
import { connectDirect, connectStdioProxy, proxyEnvironment } from "./support/proxy-process.js";
import { type Envelope, expectedEnvelope, query, structured } from "./support/query.js";

/** 2,000 environment variables, so server-everything's get-env returns a large JSON object. */
const ROWS: Record<string, string> = Object.fromEntries(
  Array.from({ length: 2000 }, (_, index) => [
    `ROW_${String(index).padStart(4, "0")}`,
    `${["core", "edge", "data"][index % 3]} member ${index} ${"x".repeat(60)}`,
  ]),
);

const folder = createJsonFolder(3);
let files: Client;
let everything: Client;
let direct: Client;

beforeAll(async () => {
  [files, everything, direct] = await Promise.all([
    connectStdioProxy(["--", process.execPath, SERVER_FILESYSTEM, folder.dir]),
    connectStdioProxy(["--", process.execPath, SERVER_EVERYTHING, "stdio"], ROWS),
    connectDirect(process.execPath, [SERVER_EVERYTHING, "stdio"]),
  ]);
});

afterAll(async () => {
  await Promise.all([files?.close(), everything?.close(), direct?.close()]);
  rmSync(folder.dir, { recursive: true, force: true });
});

describe("bounded-mcp-proxy over stdio", () => {
  it("lists the upstream's tools, outputSchemas widened, plus query_response_artifact", async () => {
    const upstream = (await direct.listTools()).tools;
    const proxied = (await everything.listTools()).tools;
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
  });

  it("answers small calls exactly as the upstream does", async () => {
    for (const call of [
      { name: "echo", arguments: { message: "hello through the proxy" } },
      { name: "get-sum", arguments: { a: 2, b: 40 } },
      { name: "get-structured-content", arguments: { location: "New York" } },
    ]) {
      expect(await everything.callTool(call)).toEqual(await direct.callTool(call));
    }
  });

  it("bounds a multi-MiB file read into a small envelope with a resource link", async () => {
    const text = readFileSync(folder.bigPath, "utf8");
    const result = (await files.callTool({
      name: "read_text_file",
      arguments: { path: folder.bigPath },
    })) as { content: { type: string }[] };
    const envelope = structured<Envelope>(result);
    const byteLength = Buffer.byteLength(JSON.stringify({ content: text }));
    expect(envelope).toEqual(
      expectedEnvelope(byteLength, {
        content: expect.stringMatching(/^\{\n "kind": "export",[\s\S]*…\[\d+ chars total\]$/),
      }),
    );
    expect(JSON.stringify(result).length).toBeLessThan(16 * 1024);
    expect(result.content.map((block) => block.type)).toEqual(["text", "resource_link"]);
  });

  it("describes and text-searches the stored file", async () => {
    const text = readFileSync(folder.bigPath, "utf8");
    const { artifact } = structured<Envelope>(
      await files.callTool({ name: "read_text_file", arguments: { path: folder.bigPath } }),
    ).responseMeta;
    expect(await query(files, artifact.id, { describe: true })).toEqual({
      artifactId: artifact.id,
      responsePath: "",
      shape: {
        type: "object",
        entryCount: 1,
        keys: [{ name: "content", pointer: "/content", type: "string", length: text.length }],
      },
      responseMeta: expect.objectContaining({ contractVersion: 3, truncated: false }),
    });
    const search = await query(files, artifact.id, { textSearch: { query: '"user-4242"' } });
    expect(search.response).toEqual([
      expect.objectContaining({
        pointer: "/content",
        offset: text.indexOf('"user-4242"'),
        context: expect.stringContaining('"user-4242"'),
      }),
    ]);
    expect(search.responseMeta).toMatchObject({ returnedCount: 1, totalCount: 1 });
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

  it("writes nothing but protocol to stdout, even with debug logs and a chatty upstream", async () => {
    const child = spawn(
      process.execPath,
      [PROXY_CLI, "--log-level", "debug", "--", process.execPath, SERVER_EVERYTHING, "stdio"],
      { env: proxyEnvironment({ BOUNDED_MCP_LOG_LEVEL: "debug" }) },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "get-env", arguments: {} },
    });
    await new Promise<void>((resolve) => {
      child.stdout.on("data", () => {
        if (stdout.includes('"id":2')) resolve();
      });
    });
    child.stdin.end();
    const code = await new Promise((resolve) => child.once("exit", resolve));
    const lines = stdout.split("\n").filter((line) => line !== "");
    expect(lines.map((line) => JSON.parse(line).jsonrpc)).toEqual(lines.map(() => "2.0"));
    expect(lines.map((line) => JSON.parse(line).id).filter((id) => id !== undefined)).toEqual([
      1, 2,
    ]);
    expect(stderr).toContain('"msg":"[upstream] ');
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
    let signalled = false;
    const result = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 4 } },
      undefined,
      {
        onprogress: () => {
          if (signalled) return;
          signalled = true;
          process.kill(proxyPid, "SIGTERM");
        },
      },
    );
    expect(signalled).toBe(true);
    expect(result).toEqual({
      content: [
        { type: "text", text: "Long running operation completed. Duration: 1 seconds, Steps: 4." },
      ],
    });
    await closed;
    expect(upstreamChildren).toHaveLength(1);
    expect([proxyPid, ...upstreamChildren].filter(isAlive)).toEqual([]);
  });

  it.each([
    [
      ["--inline-bytes", "lots"],
      '--inline-bytes: expected a byte count such as 32768, 32KiB or 64MiB, got "lots"',
    ],
    [
      ["--store", "s3"],
      "bounded-mcp settings refused (1 problem): BOUNDED_MCP_STORE=s3 needs a bucket: set s3.bucket (BOUNDED_MCP_S3_BUCKET)",
    ],
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
