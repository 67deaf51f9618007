import type { IncomingMessage } from "node:http";

/** A request body read as JSON, or the HTTP status that refuses it. */
export type BodyOutcome =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413; message: string };

/**
 * Reads a POST body up to `maxBytes` and parses it as JSON. A declared or streamed size over the
 * limit answers 413 without buffering the rest; the connection is then closed by the caller's
 * response (`Connection: close`), so an endless upload cannot hold memory.
 */
export async function readJsonBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<BodyOutcome> {
  const tooLarge = {
    ok: false,
    status: 413,
    message: `request body over ${maxBytes} bytes`,
  } as const;
  const declared = Number(request.headers["content-length"] ?? Number.NaN);
  if (declared > maxBytes) return tooLarge;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return tooLarge;
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks, size).toString("utf8")) };
  } catch (error) {
    return { ok: false, status: 400, message: `body is not JSON: ${(error as Error).message}` };
  }
}
