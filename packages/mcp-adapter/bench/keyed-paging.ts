// Paging a 1,000,000-key object (`{"k0000001": {...}, ...}`, about 30 MB) page by page: page 1
// against page 200 (reached by following nextCursor, pageSize 50), plain paging and objectMode
// "entries", through the real adapter (an SDK Client and Server over InMemoryTransport, this
// package's dist) and through the built proxy over streamable HTTP on 127.0.0.1 (apps/proxy/dist,
// upstream server-filesystem reading the file). The figure is page 200 / page 1, the median of
// per-round ratios, page 1 and page 200 interleaved in each round. In process the times are CPU
// time (process.cpuUsage: client and server together); through the proxy they are the client's
// wall-clock time of one HTTP call (the proxy is another process). Build the adapter and the
// proxy first, then: pnpm --filter @bounded-mcp/mcp-adapter bench:keyed-paging
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, median, printTable, quantile } from "@bounded-mcp/bench-utils";
import { type ArtifactStore, createMemoryStore } from "@bounded-mcp/stores";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createBoundedMcp } from "../dist/index.js";

const KEY_COUNT = 1_000_000;
const PAGE_SIZE = 50;
const TARGET_PAGE = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 15);
/** Each cold page reads and parses the whole document, so fewer rounds. */
const COLD_ROUNDS = Number(process.env.COLD_ROUNDS ?? 5);
const here = dirname(fileURLToPath(import.meta.url));
const PROXY_CLI = join(here, "../../../apps/proxy/dist/cli.js");
const FILESYSTEM = join(
  here,
  "../../../apps/proxy/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

function keyedText(): string {
  const parts: string[] = [];
  for (let index = 1; index <= KEY_COUNT; index += 1) {
    const key = `k${String(index).padStart(7, "0")}`;
    parts.push(`${JSON.stringify(key)}:{"n":${index},"tag":"t${index % 7}"}`);
  }
  return `{${parts.join(",")}}`;
}

type Call = (argumentsValue: Record<string, unknown>) => Promise<CallToolResult>;
type Clock = () => number;

// biome-ignore lint/suspicious/noExplicitAny: the bench reads envelope members.
const body = (result: CallToolResult) => result.structuredContent as any;

/** The cursor of page `TARGET_PAGE`, following nextCursor from page 1. */
async function cursorOfTarget(call: Call, request: Record<string, unknown>): Promise<string> {
  let page = body(await call(request));
  for (let number = 2; number < TARGET_PAGE; number += 1) {
    page = body(await call({ ...request, cursor: page.responseMeta.nextCursor }));
  }
  const cursor = page.responseMeta?.nextCursor;
  if (typeof cursor !== "string")
    throw new Error(`no cursor: ${JSON.stringify(page).slice(0, 400)}`);
  return cursor;
}

async function timed(clock: Clock, work: () => Promise<unknown>): Promise<number> {
  const start = clock();
  await work();
  return clock() - start;
}

async function measurePaging(
  label: string,
  call: Call,
  artifactId: string,
  clock: Clock,
  options: { rounds?: number; cursorCall?: Call } = {},
) {
  const rounds = options.rounds ?? ROUNDS;
  const cursorCall = options.cursorCall ?? call;
  const rows = [];
  for (const mode of ["plain", "entries"] as const) {
    const request = {
      artifactId,
      pageSize: PAGE_SIZE,
      ...(mode === "entries" ? { objectMode: "entries" } : {}),
    };
    const firstQuery = await timed(clock, () => call(request));
    const cursor = await cursorOfTarget(cursorCall, request);
    const target = body(await call({ ...request, cursor }));
    if (target.responseMeta.remainingCount !== KEY_COUNT - TARGET_PAGE * PAGE_SIZE) {
      throw new Error(`page ${TARGET_PAGE}: ${JSON.stringify(target.responseMeta)}`);
    }
    const first: number[] = [];
    const later: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const a = await timed(clock, () => call(request));
      const b = await timed(clock, () => call({ ...request, cursor }));
      first.push(a);
      later.push(b);
      ratios.push(b / a);
    }
    rows.push({
      path: label,
      mode,
      "first query": formatMs(firstQuery),
      "page 1": formatMs(median(first)),
      [`page ${TARGET_PAGE}`]: formatMs(median(later)),
      rounds,
      [`page ${TARGET_PAGE} / page 1`]: `${median(ratios).toFixed(2)}x (${quantile(ratios, 0.1).toFixed(2)}-${quantile(ratios, 0.9).toFixed(2)})`,
    });
  }
  return rows;
}

const cpuMs: Clock = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** An adapter with a real SDK Client and Server over InMemoryTransport; one tool returns `text`. */
async function connectAdapter(
  text: string,
  artifactStore: ArtifactStore,
  parseCacheBytes?: number,
) {
  const bounded = createBoundedMcp({
    keys: `bench:${"cd".repeat(32)}`,
    environment: {},
    artifactStore,
    artifactMaxBytes: 1024 * 1024 * 1024,
    ...(parseCacheBytes === undefined ? {} : { parseCacheBytes }),
  });
  const server = new Server({ name: "bench", version: "1.0.0" }, { capabilities: { tools: {} } });
  bounded.attach(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "keyed", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () =>
    bounded.boundResult({ content: [{ type: "text", text }] }),
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const call: Call = async (argumentsValue) =>
    (await client.callTool({
      name: "query_response_artifact",
      arguments: argumentsValue,
    })) as CallToolResult;
  const close = async () => {
    await client.close();
    await bounded.dispose();
  };
  return { client, call, close };
}

async function inProcess(text: string) {
  // Both adapters share one store and one key ring: the cold one (parse cache off, so every
  // query reads the stored bytes) answers the warm one's artifact and cursors.
  const store = createMemoryStore({ maxBytes: 4 * 1024 * 1024 * 1024 });
  const warm = await connectAdapter(text, store);
  const cold = await connectAdapter(text, store, 0);
  const bound = body(
    (await warm.client.callTool({ name: "keyed", arguments: {} })) as CallToolResult,
  );
  const id = bound.responseMeta.artifact.id;
  try {
    return [
      ...(await measurePaging("adapter, InMemoryTransport (CPU)", warm.call, id, cpuMs)),
      ...(await measurePaging("adapter, parse cache off (CPU)", cold.call, id, cpuMs, {
        rounds: COLD_ROUNDS,
        cursorCall: warm.call,
      })),
    ];
  } finally {
    await warm.close();
    await cold.close();
  }
}

async function throughProxy(dir: string, file: string) {
  const child = spawn(
    process.execPath,
    [
      PROXY_CLI,
      "--listen",
      "http://127.0.0.1:0/mcp",
      "--store",
      "memory",
      "--artifact-max-bytes",
      "512MiB",
      "--quota-bytes",
      "1GiB",
      "--",
      process.execPath,
      FILESYSTEM,
      dir,
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, BOUNDED_MCP_LOG_LEVEL: "warn" } },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        stderr += chunk;
        const match = /listening on (\S+)/.exec(stderr);
        if (match) resolve(match[1] as string);
      });
      child.once("exit", (code) => reject(new Error(`proxy exited (${code}): ${stderr}`)));
    });
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const call: Call = async (argumentsValue) =>
      (await client.callTool(
        { name: "query_response_artifact", arguments: argumentsValue },
        undefined,
        { timeout: 600_000 },
      )) as CallToolResult;
    const read = body(
      (await client.callTool({ name: "read_text_file", arguments: { path: file } }, undefined, {
        timeout: 600_000,
      })) as CallToolResult,
    );
    try {
      return await measurePaging(
        "proxy, streamable HTTP (wall)",
        call,
        read.responseMeta.artifact.id,
        () => performance.now(),
      );
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGTERM");
  }
}

const text = keyedText();
const dir = realpathSync(mkdtempSync(join(tmpdir(), "bounded-mcp-keyed-")));
const file = join(dir, "keyed.json");
writeFileSync(file, text);
try {
  const rows = [...(await inProcess(text)), ...(await throughProxy(dir, file))];
  printTable(
    `Paging a ${KEY_COUNT.toLocaleString("en")}-key object (${(text.length / 1e6).toFixed(1)} MB), pageSize ${PAGE_SIZE}, ${ROUNDS} rounds`,
    rows,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
