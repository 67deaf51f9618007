import { replaceNonObjectResult } from "./oversized-response.js";
import type { JSONRPCMessage } from "./sdk/types.js";

type Fetch = typeof fetch;

/** The methods of the JSON-RPC requests in a POST body the SDK sent, by id (empty when none). */
function requestMethodsOf(body: unknown): Map<unknown, string> {
  const methods = new Map<unknown, string>();
  if (typeof body !== "string") return methods;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return methods;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== "object" || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id !== undefined && typeof method === "string") methods.set(id, method);
  }
  return methods;
}

function mediaTypeOf(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** `message` replaced when its result is not a result object, or `undefined` when it is fine. */
function replacementOf(
  message: unknown,
  methods: Map<unknown, string>,
  upstream: string,
): unknown | undefined {
  if (typeof message !== "object" || message === null || !("id" in message)) return undefined;
  const replaced = replaceNonObjectResult(
    message as JSONRPCMessage,
    methods.get((message as { id: unknown }).id),
    upstream,
  );
  return replaced === message ? undefined : replaced;
}

/** A copy of `response` with a new body; the length and encoding headers no longer apply. */
function withBody(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

async function guardJson(
  response: Response,
  methods: Map<unknown, string>,
  upstream: string,
): Promise<Response> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return withBody(response, text);
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  let changed = false;
  const replaced = messages.map((message) => {
    const replacement = replacementOf(message, methods, upstream);
    if (replacement === undefined) return message;
    changed = true;
    return replacement;
  });
  if (!changed) return withBody(response, text);
  return withBody(response, JSON.stringify(Array.isArray(parsed) ? replaced : replaced[0]));
}

const EVENT_END = /\r\n\r\n|\n\n|\r\r/g;

/** One SSE event block (without its blank line) with a non-object result replaced. */
function guardEvent(block: string, methods: Map<unknown, string>, upstream: string): string {
  const lines = block.split(/\r\n|\r|\n/);
  const event = lines.find((line) => line.startsWith("event:"));
  if (event !== undefined && event.slice(6).trim() !== "message") return block;
  const data = lines
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
    .join("\n");
  if (data === "") return block;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return block;
  }
  const replacement = replacementOf(parsed, methods, upstream);
  if (replacement === undefined) return block;
  const kept = lines.filter((line) => !line.startsWith("data:"));
  return [...kept, `data: ${JSON.stringify(replacement)}`].join("\n");
}

function guardSse(response: Response, methods: Map<unknown, string>, upstream: string): Response {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  const guarded = (response.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const from = Math.max(0, buffer.length - 3);
        buffer += decoder.decode(chunk, { stream: true });
        EVENT_END.lastIndex = from;
        let start = 0;
        for (let match = EVENT_END.exec(buffer); match !== null; match = EVENT_END.exec(buffer)) {
          const block = buffer.slice(start, match.index);
          controller.enqueue(encoder.encode(guardEvent(block, methods, upstream) + match[0]));
          start = match.index + match[0].length;
        }
        buffer = buffer.slice(start);
      },
      flush(controller) {
        buffer += decoder.decode();
        if (buffer !== "") controller.enqueue(encoder.encode(buffer));
      },
    }),
  );
  return withBody(response, guarded);
}

/**
 * A `fetch` for the SDK's StreamableHTTPClientTransport that replaces, in the answers to the
 * requests it posts, a response whose `result` is not a result object (`null`, a string, an array,
 * `_meta` not an object) by one the relay can use (see replaceNonObjectResult: an isError
 * CallToolResult naming the problem for tools/call, a JSON-RPC error otherwise). The SDK's
 * transport would reject such a response with a raw zod error (JSON) or report it to onerror and
 * leave the call waiting for its timeout (SSE). Responses without such a result keep their bytes.
 * Limits: only answers on the POST that carried the request are checked (not the standalone GET
 * stream); a JSON body is read whole before it is passed on, as the SDK would read it.
 */
export function createResultGuardFetch(upstream: string, baseFetch: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok || response.body === null) return response;
    const methods = requestMethodsOf(init?.body);
    if (methods.size === 0) return response;
    const mediaType = mediaTypeOf(response);
    if (mediaType === "application/json") return guardJson(response, methods, upstream);
    if (mediaType === "text/event-stream") return guardSse(response, methods, upstream);
    return response;
  };
}
