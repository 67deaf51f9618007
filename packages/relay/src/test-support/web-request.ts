import type { IncomingMessage } from "node:http";

/**
 * A node:http request as the web Request the SDK's WebStandardStreamableHTTPServerTransport
 * takes (string headers, the body already read), for test upstreams served on 127.0.0.1.
 */
export function toWebRequest(request: IncomingMessage, body: string | undefined): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(`http://127.0.0.1${request.url ?? "/"}`, {
    method: request.method ?? "GET",
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** The whole body of a node:http request as UTF-8 text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
