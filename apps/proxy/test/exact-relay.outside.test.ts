import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, type RawStdioProxy, spawnRawStdioProxy } from "./support/raw-stdio.js";

// Found by trying the built proxy from outside with the Python MCP SDK, whose JSON keeps integers
// exactly: directly, an upstream receives {"recordId": 12345678901234567891} and the client gets
// a small result's structuredContent {"id": 12345678901234567891}; through the proxy both were
// 12345678901234567000 (and -0 was 0, 1e400 null), with no sign of it, because the relay parsed
// each message and wrote it again. Now both stdio transports write a message's inexact literals
// as received (exact-message-line.ts in the relay; SPEC.md §10).

const LITERAL = "12345678901234567891";

/**
 * A hand-written upstream (raw JSON-RPC lines, no SDK, so its bytes are exact): `echo_request`
 * answers with the request line it received as text; `small_numbers` answers a small result
 * whose structuredContent holds number literals a double does not hold.
 */
const UPSTREAM = `
import { createInterface } from "node:readline";
const write = (line) => process.stdout.write(line + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  const id = JSON.stringify(message.id);
  if (message.method === "initialize") {
    return write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: {
      protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: "exact-upstream", version: "1" } } }));
  }
  if (message.method === "tools/list") {
    return write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { tools: [
      { name: "echo_request", inputSchema: { type: "object" } },
      { name: "small_numbers", inputSchema: { type: "object" } } ] } }));
  }
  if (message.method !== "tools/call") return;
  if (message.params.name === "echo_request") {
    return write(JSON.stringify({ jsonrpc: "2.0", id: message.id,
      result: { content: [{ type: "text", text: line }] } }));
  }
  write('{"jsonrpc":"2.0","id":' + id + ',"result":{"content":[{"type":"text","text":"small"}],' +
    '"structuredContent":{"id":${LITERAL},"z":-0,"e":1e400}}}');
});
`;

const folder = realpathSync(mkdtempSync(join(tmpdir(), "bounded-mcp-exact-relay-")));
const upstreamPath = join(folder, "upstream.mjs");
writeFileSync(upstreamPath, UPSTREAM);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Resolves with the proxy's stdout line that answers request `id`. */
function answerLine(proxy: RawStdioProxy, id: number): Promise<string> {
  const find = () =>
    proxy
      .stdout()
      .split("\n")
      .find((line) => line.includes(`"id":${id}}`) || line.includes(`"id":${id},`));
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = find();
      if (line === undefined) return;
      proxy.child.stdout.off("data", check);
      resolve(line);
    };
    proxy.child.stdout.on("data", check);
    proxy.exited.then(() => reject(new Error(`proxy exited: ${proxy.stderr()}`)));
    check();
  });
}

describe("number literals relayed through the proxy over stdio (raw lines both ways)", () => {
  let proxy: RawStdioProxy;
  beforeAll(async () => {
    proxy = spawnRawStdioProxy(["--store", "memory", "--", process.execPath, upstreamPath]);
    proxy.send(INITIALIZE);
    await answerLine(proxy, 1);
    proxy.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return async () => {
      proxy.child.stdin.end();
      await proxy.exited;
    };
  });

  it("passes a tool call's plain numbers on to the upstream as they are", async () => {
    proxy.child.stdin.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo_request","arguments":{"recordId":42,"amount":1.5}}}\n`,
    );
    const answer = JSON.parse(await answerLine(proxy, 2));
    const received = JSON.parse(answer.result.content[0].text);
    expect(received.params.arguments).toEqual({ recordId: 42, amount: 1.5 });
  });

  it("passes a tool call argument a double does not hold to the upstream as written", async () => {
    proxy.child.stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo_request","arguments":{"recordId":${LITERAL}}}}\n`,
    );
    const answer = JSON.parse(await answerLine(proxy, 3));
    const receivedLine: string = answer.result.content[0].text;
    expect(receivedLine).toContain(`"recordId":${LITERAL}`);
  });

  it("passes a small result's structuredContent on with its number literals as written", async () => {
    proxy.child.stdin.write(
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"small_numbers","arguments":{}}}\n`,
    );
    const line = await answerLine(proxy, 4);
    expect(line).toContain(`"structuredContent":{"id":${LITERAL},"z":-0,"e":1e400}`);
  });
});
