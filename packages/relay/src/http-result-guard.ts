import { createInFlightRequests, type InFlightRequests } from "./in-flight-requests.js";
import { jsonArrayItemTexts } from "./json-array-items.js";
import { replaceNonObjectResult } from "./oversized-response.js";
import { createParser, type EventSourceMessage } from "./sdk/sse-parser.js";
import type { JSONRPCMessage, RequestId } from "./sdk/types.js";

type Fetch = typeof fetch;

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
 * The guard of the answers on every stream of one transport: an answer to a request in flight
 * ends it; a message whose result is not a result object is replaced (see
 * replaceNonObjectResult); the text of a tools/call result holding an object structuredContent
 * goes to `keep`, no other text is kept. One JSON.parse per message while requests are in flight
 * (none otherwise), which the SDK does again on the text passed on.
 */
function messageGuard(
  inFlight: InFlightRequests,
  upstream: string,
  keep: CallResultTextSink | undefined,
): MessageGuard {
  return (text) => {
    if (inFlight.size === 0) return undefined;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof message !== "object" || message === null || !("id" in message)) return undefined;
    if ("method" in message) return undefined;
    const { id } = message as { id: unknown };
    const method = inFlight.methodOf(id);
    if ("result" in message || "error" in message) inFlight.forget(id);
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

/** The item texts of `text` when it is a JSON array (a batch), else undefined. */
function batchItems(text: string): string[] | undefined {
  return text.trimStart().startsWith("[") ? jsonArrayItemTexts(text) : undefined;
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
 * unless a message in it is replaced. A batch (an array, which the SDK reads message by message)
 * is split into its items as they stand in the body (jsonArrayItemTexts), each guarded like a
 * single message (its text kept), and written again only when one is replaced: `[`, the items
 * (the others as received) joined by `,`, `]`.
 */
async function guardJson(response: Response, guard: MessageGuard): Promise<Response> {
  const text = await response.text();
  const items = batchItems(text);
  if (items === undefined) return withBody(response, guard(text) ?? text);
  let changed = false;
  const guarded = items.map((item) => {
    const replaced = guard(item);
    if (replaced === undefined) return item;
    changed = true;
    return replaced;
  });
  return withBody(response, changed ? `[${guarded.join(",")}]` : text);
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
 * The SSE text the SDK gets for one event: a message event guarded (its data replaced when its
 * message is), a batch (data that is a JSON array, which the SDK's transport cannot read from an
 * event: it reports it to onerror) as one event per message, each guarded, the event's id on the
 * last; any other event as parsed.
 */
function guardedEventText(event: EventSourceMessage, guard: MessageGuard): string {
  if (!isMessageEvent(event)) return eventText(event);
  const items = batchItems(event.data);
  if (items === undefined || items.length === 0) {
    const replaced = guard(event.data);
    return eventText(replaced === undefined ? event : { ...event, data: replaced });
  }
  let text = "";
  items.forEach((item, index) => {
    const id = index === items.length - 1 ? event.id : undefined;
    text += eventText({ id, event: event.event, data: guard(item) ?? item });
  });
  return text;
}

/**
 * An SSE body split into events by eventsource-parser, the parser the SDK's transport uses, so
 * every event (and its data text) is the one the SDK will see, however the stream is chunked
 * (a CRLF or a UTF-8 sequence across chunks, a leading BOM). Each message event is guarded (see
 * guardedEventText); the others are written back as parsed (comments and unknown fields, which
 * the SDK ignores, are dropped; `retry` is passed on).
 */
function guardSse(response: Response, guard: MessageGuard): Response {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let out: TransformStreamDefaultController<Uint8Array> | undefined;
  const parser = createParser({
    onEvent(event) {
      out?.enqueue(encoder.encode(guardedEventText(event, guard)));
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
 * A `fetch` for one SDK StreamableHTTPClientTransport that replaces, in the answers to the
 * requests it posts, a response whose `result` is not a result object (`null`, a string, an array,
 * `_meta` not an object) by one the relay can use (see replaceNonObjectResult: an isError
 * CallToolResult naming the problem for tools/call, a JSON-RPC error otherwise). The SDK's
 * transport would reject such a response with a raw zod error (JSON) or report it to onerror and
 * leave the call waiting for its timeout (SSE). A JSON body without such a result keeps its
 * bytes; an SSE body keeps every event's data text (see guardSse). With `keepCallResultText`,
 * the text of each answer to a tools/call whose structuredContent is an object (a JSON body's
 * text, an SSE event's data, a batch item as it stands in either) is handed to it with the
 * request's id, exactly the text the SDK will parse, so the stored bytes can be the upstream's
 * (see createHttpUpstreamTransport); no other text is kept.
 * Every stream an answer can arrive on is read the same way: the POST's own response (JSON or
 * SSE), the standalone GET stream, and a GET that resumes a dropped stream with Last-Event-ID,
 * through one set of the requests in flight (createInFlightRequests: noted when the SDK posts
 * them, ended by their answer on any stream). A GET stream is always split into events, but its
 * messages are parsed only while requests are in flight. A batch in an SSE event is handed to
 * the SDK as one event per message.
 * Limits: make one per transport (its requests in flight are this fetch's); `init.method` and
 * `init.body` tell what was sent (the SDK's transport passes them so; a `Request` as `input` is
 * not read); a JSON body is read whole before it is passed on, as the SDK would read it; an
 * answer to a request dropped from the in-flight set (over MAX_IN_FLIGHT_REQUESTS) keeps no text,
 * and a non-object result in it becomes a JSON-RPC error (its method is no longer known), checked
 * only while other requests are in flight.
 */
export function createResultGuardFetch(
  upstream: string,
  baseFetch: Fetch = fetch,
  keepCallResultText?: CallResultTextSink,
): Fetch {
  const inFlight = createInFlightRequests();
  const guard = messageGuard(inFlight, upstream, keepCallResultText);
  return async (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const sent = method === "POST" ? inFlight.noteSent(init?.body) : [];
    let response: Response;
    try {
      response = await baseFetch(input, init);
    } catch (error) {
      for (const id of sent) inFlight.forget(id);
      throw error;
    }
    if (!response.ok) for (const id of sent) inFlight.forget(id);
    if (!response.ok || response.body === null) return response;
    if (method === "POST" ? sent.length === 0 : method !== "GET") return response;
    const mediaType = mediaTypeOf(response);
    if (mediaType === "text/event-stream") return guardSse(response, guard);
    if (mediaType === "application/json" && method === "POST") return guardJson(response, guard);
    return response;
  };
}
