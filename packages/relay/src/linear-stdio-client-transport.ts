import { type ChildProcessByStdio, spawn } from "node:child_process";
import { channel } from "node:diagnostics_channel";
import { basename } from "node:path";
import type { Readable, Writable } from "node:stream";
import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import { type Logger, SILENT_LOGGER } from "@bounded-mcp/mcp-adapter";
import { messageLine } from "./exact-message-line.js";
import { asError, asJsonRpcMessage, stripCarriageReturn } from "./json-rpc-line.js";
import { createLineFramer, type LineFramer, type OversizedLine } from "./line-framer.js";
import {
  createTooLargeToolResult,
  findOversizedResponseId,
  replaceNonObjectResult,
} from "./oversized-response.js";
import { attachReceivedJson } from "./received-json.js";
import { RELAY_ERROR_CODES } from "./sdk/protocol.js";
import { defaultChildEnvironment } from "./sdk/transports.js";
import type { JSONRPCMessage, RequestId, Transport } from "./sdk/types.js";
import { structuredContentText } from "./structured-content-span.js";

/** The default byte cap of one upstream message: 1.3 x artifactMaxBytes (docs/sdk-notes.md 7). */
export const DEFAULT_MAX_MESSAGE_BYTES = Math.ceil(1.3 * DEFAULT_LIMITS.artifactMaxBytes);

/**
 * The most a transport keeps of a line buffer between large messages by default: enough for the
 * results of the default artifactMaxBytes, without holding gigabytes when the cap is raised.
 */
export const DEFAULT_RETAINED_BUFFER_BYTES = 64 * 1024 * 1024;

/** A decoded line longer than this (a pipe read) spanned chunks: it used the line buffer. */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * A line of at least this many characters is followed by the process's large-line collection,
 * when one is set (see collectAfterLargeLines): 16 MiB, a quarter of the default retained buffer,
 * so a line whose garbage is worth a full collection; smaller lines leave V8 to collect them.
 */
const LARGE_LINE_CHARACTERS = 16 * 1024 * 1024;

/**
 * While a line is read, a young collection runs after each this many more bytes of it (when a
 * collection is set): the pipe's chunks, copied into the line buffer, are garbage at once but
 * their memory (64 KiB each, from the C heap) is freed only when V8 collects their Buffers, and
 * the C heap keeps what it once held. Measured (bench/RESULTS.md): the C heap at a 53 MiB line's
 * end 6 - 7 MiB with 2 MiB (5 at idle), 12 - 17 MiB with 8 MiB, 12 - 37 MiB without; each of
 * these scavenges finds almost nothing alive (under 1 ms).
 */
const YOUNG_COLLECTION_BYTES = 2 * 1024 * 1024;

/**
 * Once a line being read passes this many bytes, the transport announces a large payload on
 * LARGE_PAYLOAD_CHANNEL (once per line): the adapter then starts its hashing thread, which
 * writes, hashes and tests the payload's stored bytes, while the rest of the line arrives.
 */
const LARGE_PAYLOAD_LINE_BYTES = 1024 * 1024;

/**
 * The diagnostics channel the adapter's bounding listens on to start its hashing thread before a
 * large payload is complete (`bounded-mcp:large-payload-arriving`, see the relay's README).
 */
const largePayloadArriving = channel("bounded-mcp:large-payload-arriving");

/** What the large-line collection is asked for: a young (scavenge) or a full collection. */
export type LargeLineCollectionKind = "young" | "full";

/** The collection run for large lines (collectAfterLargeLines); process-wide. */
let largeLineCollection: ((kind: LargeLineCollectionKind) => void) | undefined;

/**
 * Sets (or, with undefined, clears) the garbage collection every linear stdio transport of this
 * process runs for a large upstream line (the stdio CLIs pass the one `exposeFullCollection`
 * gives): `"full"` after a line of at least LARGE_LINE_CHARACTERS, once the line is parsed and
 * before its message is delivered, `"young"` after each YOUNG_COLLECTION_BYTES of a line being
 * read, and `"young"` once such a line is decoded, before its JSON.parse (the line buffer the
 * framer grew for it and released is then freed before the parse allocates the text, not alive
 * beside it). Why: V8 keeps such a line's string, promoted while its own JSON.parse allocated the
 * text inside it, until its next full collection, which otherwise comes during the bounding that
 * follows: the line (53 MiB for a 50 MiB result) is then alive beside the text, the stored bytes
 * and the document being built. Collected before, it is gone. Limits: process-wide; costs one
 * full collection (about 1 ms per MiB of live heap) per large line and a scavenge per 2 MiB read;
 * a collection that throws is ignored.
 */
export function collectAfterLargeLines(
  collect: ((kind: LargeLineCollectionKind) => void) | undefined,
): void {
  largeLineCollection = collect;
}

/** Longest stderr line handed to the logger; the rest of a longer line is summarized. */
const MAX_STDERR_LINE_BYTES = 16_384;

/** How much of the child's last stderr lines a transport keeps for error messages. */
export const STDERR_TAIL_BYTES = 1_024;

/** Options of {@link createLinearStdioClientTransport}. */
export interface LinearStdioClientTransportOptions {
  /** The executable to spawn (no shell). */
  command: string;
  args?: readonly string[];
  /**
   * Environment of the child, merged over the SDK's safe defaults (`defaultChildEnvironment()`:
   * HOME, LOGNAME, PATH, SHELL, TERM, USER), exactly like the SDK's StdioClientTransport.
   */
  env?: Record<string, string>;
  cwd?: string;
  /** Names the upstream in errors and log lines; default the command's base name. */
  name?: string;
  /** Largest message accepted from the child, in bytes; default {@link DEFAULT_MAX_MESSAGE_BYTES}. */
  maxMessageBytes?: number;
  /** Receives the child's stderr line by line and the transport's warnings; silent by default. */
  logger?: Logger;
  /** Put before each stderr line; default `"[upstream] "`. */
  stderrPrefix?: string;
  /** How long close() waits after ending stdin, then after SIGTERM; default 2000 ms each. */
  closeGraceMs?: number;
  /**
   * After a large message, a stdout line buffer of its size (plus a quarter) is kept, if at most
   * this many bytes, so the next large results are copied into memory already mapped and decoded
   * once (the line framer's `retainedBufferBytes`); default the smaller of `maxMessageBytes` and
   * 64 MiB (DEFAULT_RETAINED_BUFFER_BYTES). 0 keeps none.
   */
  retainedBufferBytes?: number;
  /** A kept line buffer is released once no large message has arrived for this long; default 10 s. */
  bufferIdleMs?: number;
}

/** How the child ended: an exit code, or the signal that killed it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** An SDK `Transport` over a spawned child, with what is known about the child. */
export interface LinearStdioClientTransport extends Transport {
  /** The upstream's name used in errors and logs. */
  readonly name: string;
  /** The child's process id once spawned. */
  readonly pid: number | undefined;
  /** How the child ended, once it has. */
  readonly exit: ChildExit | undefined;
  /**
   * The child's last stderr lines, newline-joined, at most STDERR_TAIL_BYTES (older lines are
   * dropped first, a longer last line keeps its end): why an upstream failed, for its error.
   */
  readonly stderrTail: string;
  /**
   * Bytes of the stdout line buffer kept between large messages now (0 when none): the memory
   * this transport holds beyond the messages themselves (see `retainedBufferBytes`).
   */
  readonly lineBufferBytes: number;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * A stdio client transport for upstream MCP servers that return results far larger than the SDK's
 * StdioClientTransport accepts (10 MiB, and quadratic framing when raised: docs/sdk-notes.md 7).
 * Lines are framed in linear time; a message over `maxMessageBytes` is discarded as it streams
 * and fails only its own call: a tools/call gets the contract's ARTIFACT_TOO_LARGE bounded error
 * result, any other request a JSON-RPC error, and the connection stays up. When the child dies,
 * every request still in flight gets an error naming the upstream and its exit code or signal
 * before `onclose`. A response whose result is not an object (`result: null`) fails its call at
 * once (see replaceNonObjectResult) instead of waiting for the timeout. A result's
 * structuredContent keeps the text it arrived as (see keepStructuredContentText), so a bounded
 * result stores the upstream's bytes. One transport spawns one child; restarting is the
 * supervisor's job.
 * Limits: POSIX-style spawning (no Windows console hiding); `sessionId` is never set.
 */
export function createLinearStdioClientTransport(
  options: LinearStdioClientTransportOptions,
): LinearStdioClientTransport {
  const name = options.name ?? basename(options.command);
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const logger = options.logger ?? SILENT_LOGGER;
  const stderrPrefix = options.stderrPrefix ?? "[upstream] ";
  const closeGraceMs = options.closeGraceMs ?? 2000;
  const bufferIdleMs = options.bufferIdleMs ?? 10_000;
  let bufferIdleTimer: NodeJS.Timeout | undefined;
  /** Requests sent to the child and not yet answered, with their method. */
  const inFlight = new Map<RequestId, string>();
  let child: Child | undefined;
  let exit: ChildExit | undefined;
  let started = false;
  let closing = false;
  let closed = false;

  const stdoutFramer: LineFramer = createLineFramer({
    maxLineBytes: maxMessageBytes,
    retainedBufferBytes:
      options.retainedBufferBytes ?? Math.min(maxMessageBytes, DEFAULT_RETAINED_BUFFER_BYTES),
    onLine: (line) => {
      if (line.length > CHUNK_CHARACTERS && stdoutFramer.bufferBytes > 0) keepBufferWhileBusy();
      // The framer released the line's grown buffer (it dies young): collected now, it is gone
      // before the line's JSON.parse allocates the text, instead of alive beside it.
      if (line.length >= LARGE_LINE_CHARACTERS) collectGarbage("young");
      receiveLine(line);
    },
    onOversizedLine: (line) => receiveOversizedLine(line),
  });
  let stderrLines: string[] = [];
  const keepStderr = (line: string) => {
    if (line.trim() === "") return;
    stderrLines.push(line);
    let bytes = stderrLines.reduce((sum, kept) => sum + Buffer.byteLength(kept) + 1, 0);
    while (bytes > STDERR_TAIL_BYTES && stderrLines.length > 1) {
      bytes -= Buffer.byteLength(stderrLines.shift() as string) + 1;
    }
    if (bytes > STDERR_TAIL_BYTES) {
      stderrLines = [
        Buffer.from(line)
          .subarray(-STDERR_TAIL_BYTES + 1)
          .toString("utf8"),
      ];
    }
  };
  const stderrFramer: LineFramer = createLineFramer({
    maxLineBytes: MAX_STDERR_LINE_BYTES,
    onLine: (line) => {
      keepStderr(stripCarriageReturn(line));
      logger.info(stderrPrefix + stripCarriageReturn(line));
    },
    onOversizedLine: (line) => {
      keepStderr(`${line.head.toString("utf8")}… [${line.byteLength} bytes]`);
      logger.info(`${stderrPrefix}${line.head.toString("utf8")}… [${line.byteLength} bytes]`);
    },
  });

  const transport: LinearStdioClientTransport = {
    name,
    get pid() {
      return child?.pid;
    },
    get exit() {
      return exit;
    },
    get stderrTail() {
      return stderrLines.join("\n");
    },
    get lineBufferBytes() {
      return stdoutFramer.bufferBytes;
    },
    start,
    send,
    close,
  };

  /** (Re)starts the countdown after which the retained stdout line buffer is released. */
  function keepBufferWhileBusy(): void {
    if (bufferIdleTimer !== undefined) {
      bufferIdleTimer.refresh();
      return;
    }
    bufferIdleTimer = setTimeout(() => {
      bufferIdleTimer = undefined;
      stdoutFramer.releaseBuffer();
    }, bufferIdleMs);
    bufferIdleTimer.unref();
  }

  function releaseStdoutBuffer(): void {
    clearTimeout(bufferIdleTimer);
    bufferIdleTimer = undefined;
    stdoutFramer.reset();
  }

  function deliver(message: JSONRPCMessage): void {
    if ("id" in message && ("result" in message || "error" in message)) {
      inFlight.delete(message.id as RequestId);
    }
    try {
      transport.onmessage?.(message);
    } catch (error) {
      transport.onerror?.(asError(error));
    }
  }

  /**
   * Messages are handed over one per microtask: the SDK's Protocol runs notification handlers
   * (progress) a microtask late but handles responses at once, so a progress notification and
   * the response that follows it in the same chunk would otherwise lose the progress.
   */
  const queue: JSONRPCMessage[] = [];
  let draining = false;
  /** The queued message parsed from a large line: the collection runs before it is delivered. */
  let collectBefore: JSONRPCMessage | undefined;

  function enqueue(message: JSONRPCMessage): void {
    queue.push(message);
    if (draining) return;
    draining = true;
    queueMicrotask(drainOne);
  }

  function drainOne(): void {
    const message = queue.shift();
    if (message !== undefined && message === collectBefore) collectLargeLine();
    if (message !== undefined) deliver(message);
    if (queue.length > 0) queueMicrotask(drainOne);
    else draining = false;
  }

  function drainAll(): void {
    collectBefore = undefined;
    for (let message = queue.shift(); message !== undefined; message = queue.shift()) {
      deliver(message);
    }
  }

  /**
   * Runs the large-line collection (see collectAfterLargeLines) in the microtask that delivers
   * the line's message: the stack that decoded and parsed the line has returned, so the line is
   * garbage while its message (and the text inside it) is kept.
   */
  function collectLargeLine(): void {
    collectBefore = undefined;
    collectGarbage("full");
  }

  /** Bytes of the partial stdout line after which the next young collection runs. */
  let nextYoungCollection = YOUNG_COLLECTION_BYTES;

  /** The line being read passed LARGE_PAYLOAD_LINE_BYTES and was announced. */
  let announcedLargeLine = false;

  /**
   * Frames a stdout chunk; a long line being read is announced once (largePayloadArriving) and
   * gets a young collection per 2 MiB.
   */
  function receiveStdout(chunk: Buffer): void {
    stdoutFramer.push(chunk);
    const pending = stdoutFramer.pendingBytes;
    if (pending < LARGE_PAYLOAD_LINE_BYTES) announcedLargeLine = false;
    else if (!announcedLargeLine) {
      announcedLargeLine = true;
      if (largePayloadArriving.hasSubscribers) largePayloadArriving.publish({ upstream: name });
    }
    if (largeLineCollection === undefined) return;
    if (pending < nextYoungCollection) {
      if (pending < YOUNG_COLLECTION_BYTES) nextYoungCollection = YOUNG_COLLECTION_BYTES;
      return;
    }
    nextYoungCollection = pending + YOUNG_COLLECTION_BYTES;
    collectGarbage("young");
  }

  function collectGarbage(kind: LargeLineCollectionKind): void {
    try {
      largeLineCollection?.(kind);
    } catch {
      // A collection is an optimization: reading and delivering go on all the same.
    }
  }

  function receiveLine(line: string): void {
    const text = stripCarriageReturn(line);
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = asJsonRpcMessage(JSON.parse(text));
    } catch (error) {
      logger.warn(`upstream "${name}" wrote a line that is not a JSON-RPC message`, {
        upstream: name,
        bytes: Buffer.byteLength(line),
      });
      transport.onerror?.(asError(error));
      return;
    }
    const keepsLine = keepStructuredContentText(message, text);
    const id = "id" in message ? (message.id as RequestId) : undefined;
    const delivered = replaceNonObjectResult(
      message,
      id === undefined ? undefined : inFlight.get(id),
      name,
    );
    // A line whose structuredContent keeps its text (a slice holds the whole line) stays alive.
    if (largeLineCollection !== undefined && !keepsLine && line.length >= LARGE_LINE_CHARACTERS) {
      collectBefore = delivered;
    }
    enqueue(delivered);
  }

  /**
   * Attaches to a response's structuredContent the text it was parsed from (sliced from the line
   * only if the adapter bounds the result), so the artifact stores the upstream's bytes: its
   * spacing, its number literals (`1.50`), not the value serialized again (SPEC.md §10).
   * True when it did: the line is then kept until the bounding slices it.
   */
  function keepStructuredContentText(message: JSONRPCMessage, line: string): boolean {
    if (!("result" in message)) return false;
    const structured = (message.result as { structuredContent?: unknown } | null)
      ?.structuredContent;
    if (typeof structured !== "object" || structured === null || Array.isArray(structured)) {
      return false;
    }
    attachReceivedJson(structured, receivedTextOnce(line));
    return true;
  }

  function receiveOversizedLine(line: OversizedLine): void {
    const id = findOversizedResponseId(line.head, line.tail);
    const method = id === undefined ? undefined : inFlight.get(id);
    const facts = { byteLength: line.byteLength, limit: maxMessageBytes, upstream: name };
    logger.warn(`upstream "${name}" sent a message over the byte cap; it was dropped`, {
      upstream: name,
      byteLength: line.byteLength,
      limit: maxMessageBytes,
      ...(method === undefined ? {} : { method }),
    });
    if (id === undefined || method === undefined) {
      transport.onerror?.(
        new Error(
          `upstream "${name}" sent a message of ${line.byteLength} bytes, over the cap of ${maxMessageBytes}; it was not an answer to a pending request and was dropped`,
        ),
      );
      return;
    }
    if (method === "tools/call") {
      enqueue({ jsonrpc: "2.0", id, result: createTooLargeToolResult(facts) });
      return;
    }
    enqueue({
      jsonrpc: "2.0",
      id,
      error: {
        code: RELAY_ERROR_CODES.internalError,
        message: `The ${method} response of upstream "${name}" is ${line.byteLength} bytes, over the relay's limit of ${maxMessageBytes} bytes; it was dropped unread.`,
        data: { byteLength: line.byteLength, limit: maxMessageBytes },
      },
    });
  }

  function failInFlight(ended: ChildExit): void {
    const requests = [...inFlight.entries()];
    inFlight.clear();
    for (const [id, method] of requests) {
      transport.onmessage?.({
        jsonrpc: "2.0",
        id,
        error: {
          code: RELAY_ERROR_CODES.connectionClosed,
          message: `upstream "${name}" ${describeExit(ended)} while ${method} was in flight`,
          data: { upstream: name, exitCode: ended.code, signal: ended.signal },
        },
      });
    }
  }

  function onChildClose(code: number | null, signal: NodeJS.Signals | null): void {
    exit = { code, signal };
    child = undefined;
    releaseStdoutBuffer();
    drainAll();
    stderrFramer.flush();
    if (!closing) {
      logger.warn(`upstream "${name}" ${describeExit(exit)}`, {
        upstream: name,
        exitCode: code,
        signal,
      });
      failInFlight(exit);
    }
    inFlight.clear();
    finishClose();
  }

  function finishClose(): void {
    if (closed) return;
    closed = true;
    transport.onclose?.();
  }

  function start(): Promise<void> {
    if (started) {
      return Promise.reject(new Error(`transport of upstream "${name}" already started`));
    }
    started = true;
    return new Promise<void>((resolve, reject) => {
      const spawned: Child = spawn(options.command, [...(options.args ?? [])], {
        env: { ...defaultChildEnvironment(), ...options.env },
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      });
      child = spawned;
      spawned.on("error", (error) => {
        reject(error);
        transport.onerror?.(error);
      });
      spawned.on("spawn", () => resolve());
      spawned.on("close", onChildClose);
      spawned.stdin.on("error", (error) => transport.onerror?.(error));
      spawned.stdout.on("data", receiveStdout);
      spawned.stdout.on("error", (error) => transport.onerror?.(error));
      spawned.stderr.on("data", (chunk: Buffer) => stderrFramer.push(chunk));
    });
  }

  function send(message: JSONRPCMessage): Promise<void> {
    const stdin = child?.stdin;
    if (stdin === undefined || !stdin.writable) {
      return Promise.reject(new Error(`upstream "${name}" is not connected`));
    }
    track(message);
    return new Promise<void>((resolve, reject) => {
      if (stdin.write(`${messageLine(message)}\n`)) {
        resolve();
        return;
      }
      const onDrain = () => {
        stdin.off("close", onClose);
        resolve();
      };
      const onClose = () => {
        stdin.off("drain", onDrain);
        reject(new Error(`upstream "${name}" closed its input before the message was written`));
      };
      stdin.once("drain", onDrain);
      stdin.once("close", onClose);
    });
  }

  function track(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      inFlight.set(message.id, message.method);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (requestId !== undefined) inFlight.delete(requestId);
    }
  }

  async function close(): Promise<void> {
    closing = true;
    const running = child;
    if (running === undefined) {
      finishClose();
      return;
    }
    const exited = new Promise<void>((resolve) => running.once("close", () => resolve()));
    running.stdin.end();
    if (!(await settlesWithin(exited, closeGraceMs)) && running.exitCode === null) {
      running.kill("SIGTERM");
      if (!(await settlesWithin(exited, closeGraceMs)) && running.exitCode === null) {
        running.kill("SIGKILL");
      }
    }
    releaseStdoutBuffer();
    finishClose();
  }

  return transport;
}

/**
 * The structuredContent text of `line`, sliced on the first call and the same answer after:
 * the closure holds the line only until then, so a structuredContent object that outlives its
 * bounding (a parse cache keeps it as the document) no longer keeps the line for the first call's
 * sake (the slice still shares the line's memory, until the adapter drops the text after storing).
 */
function receivedTextOnce(line: string): () => string | undefined {
  let pending: string | undefined = line;
  let sliced: string | undefined;
  return () => {
    if (pending !== undefined) {
      sliced = structuredContentText(pending);
      pending = undefined;
    }
    return sliced;
  };
}

/** "exited with code 1" or "was killed by SIGKILL", for error messages. */
export function describeExit(exit: ChildExit): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? "unknown"}`;
}

function settlesWithin(promise: Promise<void>, milliseconds: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), milliseconds);
    timer.unref();
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
