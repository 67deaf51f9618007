import type { IncomingMessage } from "node:http";
import { withExactToolArguments } from "@bounded-mcp/relay";

/** A request body read as JSON, or the HTTP status that refuses it. */
export type BodyOutcome =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 408 | 413; message: string };

/** Limits of {@link readJsonBody}. */
export interface BodyLimits {
  /** Largest body in bytes; a declared or streamed larger one answers 413. */
  maxBytes: number;
  /** Longest wait for the whole body from the first read, in ms; then 408. */
  timeoutMs: number;
}

/**
 * Reads a POST body up to `maxBytes` within `timeoutMs` and parses it as JSON, the filter values
 * of a query_response_artifact call and other tools' arguments exactly (withExactToolArguments,
 * SPEC.md §10, so a forwarded literal reaches a stdio upstream as written: the body goes
 * to the SDK's handleRequest as its parsed body, which it passes on unchanged). A declared or
 * streamed size over the limit answers 413 and a body still incomplete at the deadline answers
 * 408, without buffering the rest: what still arrives is read and dropped (never left unread, so
 * closing the connection afterwards sends no reset that could destroy the answer). The caller
 * answers and then closes the connection (see `closeAfterAnswer`).
 */
export function readJsonBody(request: IncomingMessage, limits: BodyLimits): Promise<BodyOutcome> {
  const { maxBytes, timeoutMs } = limits;
  const tooLarge = {
    ok: false,
    status: 413,
    message: `request body over ${maxBytes} bytes`,
  } as const;
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (declared > maxBytes) {
    request.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise<BodyOutcome>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off("data", onData);
      // Drop whatever still comes; the caller's answer ends the exchange.
      if (!outcome.ok) request.on("data", () => {});
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          status: 408,
          message: `request body not received within ${timeoutMs} ms`,
        }),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish(tooLarge);
      chunks.push(chunk);
    };
    request.on("data", onData);
    const cutOff = () => finish({ ok: false, status: 400, message: "request body was cut off" });
    request.once("error", cutOff);
    request.once("close", cutOff);
    request.once("end", () => {
      try {
        const text = Buffer.concat(chunks, size).toString("utf8");
        finish({ ok: true, value: withExactToolArguments(text, JSON.parse(text)) });
      } catch (error) {
        finish({
          ok: false,
          status: 400,
          message: `body is not JSON: ${(error as Error).message}`,
        });
      }
    });
  });
}
