import { replaceNonObjectResult } from "./oversized-response.js";
import { createParser, type EventSourceMessage } from "./sdk/sse-parser.js";
import type { JSONRPCMessage, RequestId } from "./sdk/types.js";

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

/** The id of a JSON-RPC message the SDK's JSONRPCMessageSchema accepts as an id. */
function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isInteger(id);
}

/**
 * Receives the text of a tools/call response message as it came over HTTP (a JSON body, an SSE
 * event's data), for the transport to attach to the structuredContent it delivers for `id`.
 */
export type CallResultTextSink = (id: RequestId, text: string) => void;

/** Checks one JSON-RPC message text: a replacement text for it, or undefined to pass it on. */
type MessageGuard = (text: string) => string | undefined;

/**
 * The guard of the answers to one POST: a message whose result is not a result object is
 * replaced (see replaceNonObjectResult); the text of a tools/call result holding an object
 * structuredContent goes to `keep`, no other text is kept. One JSON.parse per message, which
 * the SDK does again on the text passed on.
 */
function messageGuard(
  methods: Map<unknown, string>,
  upstream: string,
  keep: CallResultTextSink | undefined,
): MessageGuard {
  return (text) => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof message !== "object" || message === null || !("id" in message)) return undefined;
    const { id } = message as { id: unknown };
    const method = methods.get(id);
    const replaced = replaceNonObjectResult(message as JSONRPCMessage, method, upstream);
    if (replaced !== message) return JSON.stringify(replaced);
    const wellFormed = (message as { jsonrpc?: unknown }).jsonrpc === "2.0" && isRequestId(id);
    if (keep !== undefined && method === "tools/call" && wellFormed) {
      const structured = (message as { result?: { structuredContent?: unknown } }).result
        ?.structuredContent;
      if (typeof structured === "object" && structured !== null && !Array.isArray(structured)) {
        keep(id, text);
      }
    }
    return undefined;
  };
}

/** A copy of `response` with a new body; the length and encoding headers no longer apply. */
function withBody(response: Response, body: string | ReadableStream<Uint8Array>): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A JSON body read whole, as the SDK reads it (UTF-8, a leading BOM dropped), passed on as read
 * unless its message is replaced. A batch (an array, which the SDK's single requests never get)
 * is checked message by message and, when one is replaced, written again; its texts are not kept.
 */
async function guardJson(
  response: Response,
  guard: MessageGuard,
  batchGuard: MessageGuard,
): Promise<Response> {
  const text = await response.text();
  if (!text.trimStart().startsWith("[")) return withBody(response, guard(text) ?? text);
  let batch: unknown;
  try {
    batch = JSON.parse(text);
  } catch {
    return withBody(response, text);
  }
  let changed = false;
  const messages = (batch as unknown[]).map((message) => {
    const replaced = batchGuard(JSON.stringify(message));
    if (replaced === undefined) return message;
    changed = true;
    return JSON.parse(replaced) as unknown;
  });
  return withBody(response, changed ? JSON.stringify(messages) : text);
}

/** Whether the SDK hands this event to its JSON-RPC parser (its transport's own test). */
function isMessageEvent(event: EventSourceMessage): boolean {
  return event.data !== "" && (event.event === undefined || event.event === "message");
}

/**
 * The SSE text of one event as eventsource-parser read it: an SDK transport reading it gets the
 * same id, type and data (each data line written back whole; a leading space of a line's value
 * survives, since exactly one space after the colon is stripped).
 */
function eventText(event: EventSourceMessage): string {
  let text = event.id === undefined ? "" : `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  for (const line of event.data.split("\n")) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * An SSE body split into events by eventsource-parser, the parser the SDK's transport uses, so
 * every event (and its data text) is the one the SDK will see, however the stream is chunked
 * (a CRLF or a UTF-8 sequence across chunks, a leading BOM). Each message event with a
 * non-object result is replaced; the others are written back as parsed (comments and unknown
 * fields, which the SDK ignores, are dropped; `retry` is passed on).
 */
function guardSse(response: Response, guard: MessageGuard): Response {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let out: TransformStreamDefaultController<Uint8Array> | undefined;
  const parser = createParser({
    onEvent(event) {
      let text = eventText(event);
      if (isMessageEvent(event)) {
        const replaced = guard(event.data);
        if (replaced !== undefined) text = eventText({ ...event, data: replaced });
      }
      out?.enqueue(encoder.encode(text));
    },
    onRetry(interval) {
      out?.enqueue(encoder.encode(`retry: ${interval}\n`));
    },
  });
  const guarded = (response.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        out = controller;
        parser.feed(decoder.decode(chunk, { stream: true }));
      },
      flush(controller) {
        out = controller;
        const rest = decoder.decode();
        if (rest !== "") parser.feed(rest);
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
 * leave the call waiting for its timeout (SSE). A JSON body without such a result keeps its
 * bytes; an SSE body keeps every event's data text (see guardSse). With `keepCallResultText`,
 * the text of each answer to a tools/call whose structuredContent is an object (a JSON body's
 * text, an SSE event's data) is handed to it with the request's id, exactly the text the SDK
 * will parse, so the stored bytes can be the upstream's (see createHttpUpstreamTransport); no
 * other text is kept.
 * Limits: only answers on the POST that carried the request are checked (not the standalone GET
 * stream, nor a resumed one); a JSON body is read whole before it is passed on, as the SDK would
 * read it; in a batch body (never the answer to the SDK's single requests) texts are not kept.
 */
export function createResultGuardFetch(
  upstream: string,
  baseFetch: Fetch = fetch,
  keepCallResultText?: CallResultTextSink,
): Fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok || response.body === null) return response;
    const methods = requestMethodsOf(init?.body);
    if (methods.size === 0) return response;
    const mediaType = mediaTypeOf(response);
    if (mediaType !== "application/json" && mediaType !== "text/event-stream") return response;
    const guard = messageGuard(methods, upstream, keepCallResultText);
    if (mediaType === "text/event-stream") return guardSse(response, guard);
    return guardJson(response, guard, messageGuard(methods, upstream, undefined));
  };
}
