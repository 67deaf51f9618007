import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type HttpProxyProcess, startHttpProxy } from "./support/proxy-process.js";
import { INITIALIZE, type RawStdioProxy, spawnRawStdioProxy } from "./support/raw-stdio.js";

// SPEC.md §10: a filter value a double does not hold is read from the raw request. The query
// lines are written by hand: the SDK client's JSON.stringify cannot write 12345678901234567890.

const BIG = "12345678901234567890";
const NEXT = "12345678901234567891";

/** A folder with items.json: about 1 MiB of rows, two of them with ids no double holds. */
function createFolder(): { dir: string; path: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bounded-mcp-exact-")));
  const rows = Array.from(
    { length: 3000 },
    (_, index) => `{"id":${index},"k":"row-${index}","notes":"${"lorem ipsum ".repeat(25)}"}`,
  );
  rows.splice(1000, 0, `{"id":${BIG},"k":"big"}`);
  rows.splice(2000, 0, `{"id":${NEXT},"k":"next"}`);
  const path = join(dir, "items.json");
  writeFileSync(path, `{"items":[\n${rows.join(",\n")}\n]}`);
  return { dir, path };
}

const folder = createFolder();

/** The query call as a raw JSON-RPC line, the filter value written as a literal. */
function queryLine(id: number, artifactId: string, op: string, literal: string): string {
  const filter = `{"path":"/id","op":"${op}","value":${literal}}`;
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${QUERY_TOOL_NAME}","arguments":{"artifactId":"${artifactId}","responsePath":"/items","fields":["id","k"],"filters":[${filter}]}}}`;
}

const READ_CALL = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "read_text_file", arguments: { path: folder.path } },
});

interface ToolAnswer {
  result: { content: { type: string; text: string }[]; isError?: boolean };
}

/** The first text block of a tool result: the envelope's JSON, literals as written. */
const textOf = (answer: ToolAnswer) => answer.result.content[0]?.text as string;

function artifactIdOf(answer: ToolAnswer): string {
  return (JSON.parse(textOf(answer)) as { responseMeta: { artifact: { id: string } } }).responseMeta
    .artifact.id;
}

afterAll(() => rmSync(folder.dir, { recursive: true, force: true }));

describe("exact filter values over stdio (a raw line on the proxy's stdin)", () => {
  let proxy: RawStdioProxy;
  const answers = new Map<number, ToolAnswer>();
  const waiters = new Map<number, (answer: ToolAnswer) => void>();
  let pending = "";

  const answerTo = (id: number) =>
    new Promise<ToolAnswer>((resolve) => {
      const known = answers.get(id);
      if (known) resolve(known);
      else waiters.set(id, resolve);
    });

  beforeAll(() => {
    proxy = spawnRawStdioProxy(["--", process.execPath, SERVER_FILESYSTEM, folder.dir]);
    proxy.child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number } & ToolAnswer;
        if (typeof message.id !== "number") continue;
        answers.set(message.id, message);
        waiters.get(message.id)?.(message);
      }
    });
  });

  afterAll(async () => {
    proxy.child.stdin.end();
    await proxy.exited;
  });

  it("eq 12345678901234567890 returns that one item, gt returns the next one", async () => {
    proxy.send(INITIALIZE);
    await answerTo(1);
    proxy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    proxy.send(READ_CALL(2));
    const artifactId = artifactIdOf(await answerTo(2));

    proxy.child.stdin.write(`${queryLine(3, artifactId, "eq", BIG)}\n`);
    const eq = textOf(await answerTo(3));
    expect(JSON.parse(eq).response).toEqual([{ id: Number(BIG), k: "big" }]);
    expect(JSON.parse(eq).responseMeta.filtersApplied).toEqual([
      { path: "/id", op: "eq", resolvedOn: 3002, matched: 1 },
    ]);
    expect(eq).toContain(`[{"id":${BIG},"k":"big"}]`);

    proxy.child.stdin.write(`${queryLine(4, artifactId, "gt", BIG)}\n`);
    const gt = textOf(await answerTo(4));
    expect(gt).toContain(`[{"id":${NEXT},"k":"next"}]`);
    expect(JSON.parse(gt).responseMeta.filtersApplied).toEqual([
      { path: "/id", op: "gt", resolvedOn: 3002, matched: 1 },
    ]);
  });
});

describe("exact filter values over streamable HTTP (a raw POST)", () => {
  let proxy: HttpProxyProcess;
  let session: Record<string, string> = {};

  beforeAll(async () => {
    proxy = await startHttpProxy([
      "--listen",
      "http://127.0.0.1:0/mcp",
      "--",
      process.execPath,
      SERVER_FILESYSTEM,
      folder.dir,
    ]);
  });

  afterAll(async () => {
    await proxy?.stop();
  });

  /** POSTs a body (text as is) and returns the JSON-RPC answer, from JSON or an SSE stream. */
  async function post(body: string): Promise<{ response: Response; answer: unknown }> {
    const response = await fetch(proxy.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...session,
      },
      body,
    });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    if (!type.includes("text/event-stream")) {
      return { response, answer: text === "" ? undefined : JSON.parse(text) };
    }
    const data = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice("data: ".length)) as { id?: unknown });
    return { response, answer: data.find((message) => message.id !== undefined) };
  }

  it("eq 12345678901234567890 returns that one item, gt returns the next one", async () => {
    const opened = await post(JSON.stringify(INITIALIZE));
    expect(opened.response.status).toBe(200);
    const sessionId = opened.response.headers.get("mcp-session-id");
    session = {
      "mcp-protocol-version": "2025-06-18",
      ...(sessionId === null ? {} : { "mcp-session-id": sessionId }),
    };
    await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    const read = await post(JSON.stringify(READ_CALL(2)));
    const artifactId = artifactIdOf(read.answer as ToolAnswer);

    const eq = textOf((await post(queryLine(3, artifactId, "eq", BIG))).answer as ToolAnswer);
    expect(JSON.parse(eq).response).toEqual([{ id: Number(BIG), k: "big" }]);
    expect(JSON.parse(eq).responseMeta.filtersApplied).toEqual([
      { path: "/id", op: "eq", resolvedOn: 3002, matched: 1 },
    ]);
    expect(eq).toContain(`[{"id":${BIG},"k":"big"}]`);

    const gt = textOf((await post(queryLine(4, artifactId, "gt", BIG))).answer as ToolAnswer);
    expect(gt).toContain(`[{"id":${NEXT},"k":"next"}]`);
    expect(JSON.parse(gt).responseMeta.filtersApplied).toEqual([
      { path: "/id", op: "gt", resolvedOn: 3002, matched: 1 },
    ]);
  });
});
