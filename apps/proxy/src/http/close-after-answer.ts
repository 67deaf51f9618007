import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Closes a refused request's connection once its answer (401, 408, 413) has gone out, without a
 * reset: the server half-closes (the client reads the whole answer, then the end of the stream),
 * reads and drops whatever the client still sends, and destroys the socket only when the client
 * has not closed its side within `lingerMs`. Closing at once with unread bytes would make the
 * kernel send a reset, which can destroy the answer before the client reads it; leaving it open
 * would hold a slow uploader's connection until its body ends. Call it before sending the answer,
 * and do not set `Connection: close` on it (Node would then destroy the socket itself on finish).
 */
export function closeAfterAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  lingerMs: number,
): void {
  const socket = request.socket;
  request.on("data", () => {});
  request.resume();
  response.once("finish", () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
}
