import type { Readable, Writable } from "node:stream";
import { type Logger, SILENT_LOGGER } from "@bounded-mcp/mcp-adapter";
import { messageLine } from "./exact-message-line.js";
import { withExactQueryArguments, withExactToolArguments } from "./exact-query-arguments.js";
import { asError, asJsonRpcMessage, stripCarriageReturn } from "./json-rpc-line.js";
import { createLineFramer, type LineFramer, type OversizedLine } from "./line-framer.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./linear-stdio-client-transport.js";
import { classifyOversizedLine } from "./oversized-response.js";
import { RELAY_ERROR_CODES } from "./sdk/protocol.js";
import type { JSONRPCMessage, Transport } from "./sdk/types.js";

/** Options of {@link createLinearStdioServerTransport}. */
export interface LinearStdioServerTransportOptions {
  /** Where the client's messages arrive; default process.stdin. */
  stdin?: Readable;
  /** Where answers go; default process.stdout. */
  stdout?: Writable;
  /**
   * Largest message read from the client, in bytes (newline excluded); default
   * {@link DEFAULT_MAX_MESSAGE_BYTES} (1.3 x artifactMaxBytes, 83.2 MiB), the upstream side's cap.
   */
  maxMessageBytes?: number;
  /** Receives a line for each message dropped or unreadable; silent by default. */
  logger?: Logger;
  /**
   * Also read every other tool's arguments exactly (withExactToolArguments), for a relay that
   * forwards them (serveStdio sets it); default false: only the query tool's filters, so a
   * server's own tools never meet an ExactNumber.
   */
  exactToolArguments?: boolean;
}

/**
 * A server-side stdio transport for a program serving one MCP client over its own stdio (both
 * apps, through `serveStdio`), replacing the SDK's StdioServerTransport, whose read buffer ends
 * the connection once 10 MiB are buffered (and re-concatenates the buffer per chunk). Lines are
 * framed in linear time by the relay's line framer. A line over `maxMessageBytes` is discarded as
 * it streams, and only it: a request whose id can be read from the line's start or end gets a
 * JSON-RPC error (-32600) for that id; a response of the client (to a sampling, elicitation or
 * roots request) whose id can be read is handed on as an error response, so the request waiting
 * for it fails instead of hanging; anything else is dropped with a log line. The connection stays
 * up. A line that is not JSON-RPC goes to `onerror`, like the SDK's. The filter values of a
 * query_response_artifact call are read from the raw line (withExactQueryArguments), so a literal
 * a double does not hold reaches the query tool exactly (SPEC.md §10).
 * Limits: writes are not cut (a message is written whole, waiting for `drain`); `sessionId` is
 * never set; one transport per stream pair.
 */
export function createLinearStdioServerTransport(
  options: LinearStdioServerTransportOptions = {},
): Transport {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const logger = options.logger ?? SILENT_LOGGER;
  const readExact =
    options.exactToolArguments === true ? withExactToolArguments : withExactQueryArguments;
  let started = false;
  let closed = false;

  const framer: LineFramer = createLineFramer({
    maxLineBytes: maxMessageBytes,
    onLine: (line) => receiveLine(line),
    onOversizedLine: (line) => receiveOversizedLine(line),
  });

  const transport: Transport = { start, send, close };

  function deliver(message: JSONRPCMessage): void {
    try {
      transport.onmessage?.(message);
    } catch (error) {
      transport.onerror?.(asError(error));
    }
  }

  function receiveLine(line: string): void {
    const text = stripCarriageReturn(line);
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = asJsonRpcMessage(readExact(text, JSON.parse(text)));
    } catch (error) {
      logger.warn("the client wrote a line that is not a JSON-RPC message", {
        bytes: Buffer.byteLength(line),
      });
      transport.onerror?.(asError(error));
      return;
    }
    deliver(message);
  }

  function receiveOversizedLine(line: OversizedLine): void {
    const message = classifyOversizedLine(line.head, line.tail);
    const facts = { byteLength: line.byteLength, limit: maxMessageBytes };
    if (message?.id === undefined) {
      logger.warn("the client sent a message over the byte cap without a readable id; dropped", {
        ...facts,
        kind: message?.kind ?? "unknown",
      });
      return;
    }
    logger.warn(`the client sent a ${message.kind} over the byte cap; it was dropped unread`, {
      ...facts,
      id: message.id,
    });
    if (message.kind === "request") {
      void send({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: RELAY_ERROR_CODES.invalidRequest,
          message: `The request is ${line.byteLength} bytes, over this server's limit of ${maxMessageBytes} bytes; it was dropped unread. Send smaller arguments.`,
          data: facts,
        },
      }).catch((error: unknown) => transport.onerror?.(asError(error)));
      return;
    }
    deliver({
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: RELAY_ERROR_CODES.internalError,
        message: `The client's response is ${line.byteLength} bytes, over this server's limit of ${maxMessageBytes} bytes; it was dropped unread.`,
        data: facts,
      },
    });
  }

  const onData = (chunk: Buffer) => framer.push(chunk);
  const onError = (error: Error) => transport.onerror?.(error);

  async function start(): Promise<void> {
    if (started) throw new Error("the stdio server transport is already started");
    started = true;
    stdin.on("data", onData);
    stdin.on("error", onError);
  }

  function send(message: JSONRPCMessage): Promise<void> {
    if (closed) return Promise.reject(new Error("the stdio server transport is closed"));
    return new Promise<void>((resolve, reject) => {
      let line: string;
      try {
        line = `${messageLine(message)}\n`;
      } catch (error) {
        reject(asError(error));
        return;
      }
      if (stdout.write(line)) resolve();
      else stdout.once("drain", resolve);
    });
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    stdin.off("data", onData);
    stdin.off("error", onError);
    // Paused only when nothing else reads it, as the SDK's transport does.
    if (stdin.listenerCount("data") === 0) stdin.pause();
    framer.reset();
    transport.onclose?.();
  }

  return transport;
}
