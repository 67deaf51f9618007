import { rmSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonFolder } from "./support/big-json.js";
import { SERVER_FILESYSTEM } from "./support/paths.js";
import { type HttpProxyProcess, startHttpProxy } from "./support/proxy-process.js";
import { TOKENS, writeTokensFile } from "./support/tokens.js";

// Bounded connections through the real proxy, from a raw socket: what a slow or oversized
// request costs the server. No timing is asserted: each case waits for the socket to close (the
// test timeout is the generous outer bound) and checks what the server answered and that it
// closed the connection before the client stopped sending.

const folder = createJsonFolder(0.01);
const tokensFile = writeTokensFile(folder.dir);
/** Small, so the deadline cases end quickly; the body they send would take far longer. */
const BODY_TIMEOUT = "300ms";
let proxy: HttpProxyProcess;
let port: number;

beforeAll(async () => {
  proxy = await startHttpProxy([
    "--listen",
    "http://127.0.0.1:0/mcp",
    "--auth-tokens",
    tokensFile,
    "--max-body-bytes",
    "64KiB",
    "--body-timeout",
    BODY_TIMEOUT,
    "--headers-timeout",
    "500ms",
    "--",
    process.execPath,
    SERVER_FILESYSTEM,
    folder.dir,
  ]);
  port = Number(new URL(proxy.url).port);
});

afterAll(async () => {
  await proxy?.stop();
  rmSync(folder.dir, { recursive: true, force: true });
});

/** What the server sent back on a raw connection, and how much of the body went out first. */
interface Exchange {
  /** Everything received, as text (status line, headers, body). */
  received: string;
  /** Body chunks written before the socket closed. */
  chunksSent: number;
  /** Whether the socket ended with an error (a reset) rather than an orderly close. */
  reset: boolean;
}

/**
 * Writes `head` (request line and headers), then body chunks of `chunk` bytes every
 * `intervalMs` (0: as fast as the socket takes them) until `chunks` were sent or the socket
 * closed; resolves once it closed.
 */
function exchange(options: {
  head: string;
  chunk: number;
  chunks: number;
  intervalMs: number;
}): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let chunksSent = 0;
    let closed = false;
    let reset = false;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      received += text;
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET") reset = true;
    });
    socket.once("close", () => {
      closed = true;
      clearTimeout(timer);
      resolve({ received, chunksSent, reset });
    });
    const body = Buffer.alloc(options.chunk, "x");
    const sendNext = () => {
      if (closed || socket.destroyed || !socket.writable) return;
      if (chunksSent >= options.chunks) return;
      chunksSent += 1;
      const flushed = socket.write(body);
      if (options.intervalMs > 0) timer = setTimeout(sendNext, options.intervalMs);
      else if (flushed) setImmediate(sendNext);
      else socket.once("drain", sendNext);
    };
    socket.once("connect", () => {
      socket.write(options.head);
      sendNext();
    });
  });
}

const head = (headers: Record<string, string | number>) =>
  [
    "POST /mcp HTTP/1.1",
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");

/** The status line and the JSON body of an HTTP/1.1 answer. */
function answerOf(received: string): { status: string; body: unknown } {
  const [headText = "", bodyText = ""] = received.split("\r\n\r\n");
  return { status: headText.split("\r\n")[0] ?? "", body: bodyText ? JSON.parse(bodyText) : null };
}

describe("bounded-mcp-proxy connections", () => {
  it("answers an unauthenticated request with 401 and closes the connection while its slow body is still coming", async () => {
    const chunks = 2_000;
    const result = await exchange({
      head: head({ "Content-Length": chunks * 10 }),
      chunk: 10,
      chunks,
      intervalMs: 20,
    });
    expect(answerOf(result.received)).toEqual({
      status: "HTTP/1.1 401 Unauthorized",
      body: {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Unauthorized: a valid bearer token is required" },
        id: null,
      },
    });
    expect(result.chunksSent).toBeLessThan(chunks);
  });

  it("delivers 413 as a response, not a reset, to a body over --max-body-bytes sent at full speed", async () => {
    const chunks = 160;
    const result = await exchange({
      head: head({ "Content-Length": chunks * 64 * 1024, Authorization: `Bearer ${TOKENS.alice}` }),
      chunk: 64 * 1024,
      chunks,
      intervalMs: 0,
    });
    expect({ ...answerOf(result.received), reset: result.reset }).toEqual({
      status: "HTTP/1.1 413 Payload Too Large",
      body: {
        jsonrpc: "2.0",
        error: { code: -32000, message: "request body over 65536 bytes (--max-body-bytes)" },
        id: null,
      },
      reset: false,
    });
  });

  it("cuts an authenticated body that does not arrive within --body-timeout with 408 and closes", async () => {
    // Within --max-body-bytes, but at this pace it would take minutes to arrive.
    const chunks = 6_000;
    const result = await exchange({
      head: head({ "Content-Length": chunks * 10, Authorization: `Bearer ${TOKENS.alice}` }),
      chunk: 10,
      chunks,
      intervalMs: 20,
    });
    expect(answerOf(result.received)).toEqual({
      status: "HTTP/1.1 408 Request Timeout",
      body: {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message: "request body not received within 300 ms (--body-timeout)",
        },
        id: null,
      },
    });
    expect(result.chunksSent).toBeLessThan(chunks);
  });

  it("closes a connection whose headers do not arrive within --headers-timeout", async () => {
    const result = await exchange({
      head: `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`,
      chunk: 0,
      chunks: 0,
      intervalMs: 0,
    });
    expect(result.received.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
  });
});
