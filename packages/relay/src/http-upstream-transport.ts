import { createResultGuardFetch } from "./http-result-guard.js";
import { attachReceivedJson } from "./received-json.js";
import { createHttpClientTransport } from "./sdk/transports.js";
import type { JSONRPCMessage, RequestId, Transport } from "./sdk/types.js";
import { structuredContentText } from "./structured-content-span.js";

/** Options of {@link createHttpUpstreamTransport}. */
export interface HttpUpstreamTransportOptions {
  url: URL;
  /** Sent with every request (e.g. `Authorization`). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Names the upstream in the error results of the result guard. */
  name: string;
  /** The fetch under the guard; default the global one. */
  fetch?: typeof fetch;
}

/** A transport that also tells how many received texts it holds (for tests of its memory). */
export interface HttpUpstreamTransport extends Transport {
  /** tools/call result texts captured and not yet delivered (0 between calls). */
  readonly heldTexts: number;
}

type MessageHandler = NonNullable<Transport["onmessage"]>;

/**
 * The SDK's StreamableHTTPClientTransport to an upstream, through the relay's result guard
 * (createResultGuardFetch), keeping the bytes of structuredContent as received: the guard hands
 * over the text of each tools/call answer whose structuredContent is an object (a JSON body, an
 * SSE event's data split as the SDK splits it, a batch item; on the POST's own response, the
 * standalone GET stream or a GET resuming a dropped stream), and when the SDK delivers that
 * response its structuredContent gets the same received-JSON property the stdio transport sets (the span
 * sliced lazily by structuredContentText), so a bounded result stores the upstream's bytes, its
 * number literals (`12345678901234567890`, `1e400`, `-0`) and escapes (`\ud800`), and hashes
 * them (SPEC.md §10). A text is held from its arrival to its delivery only (then it lives on with
 * the structuredContent object it describes, as on stdio); a response the SDK does not deliver
 * leaves its text held until the next delivery of that id or close.
 * Limits: the SDK parses each message itself, and the guard parses it once more; an answer the
 * guard no longer counts as in flight (see createResultGuardFetch) keeps no text (stored
 * serialized again).
 */
export function createHttpUpstreamTransport(
  options: HttpUpstreamTransportOptions,
): HttpUpstreamTransport {
  const texts = new Map<RequestId, string>();
  const guarded = createResultGuardFetch(options.name, options.fetch ?? fetch, (id, text) => {
    texts.set(id, text);
  });
  const transport = createHttpClientTransport(options.url, options.headers, guarded);

  function keepText(message: JSONRPCMessage): void {
    if (texts.size === 0 || !("result" in message) || !("id" in message)) return;
    const text = texts.get(message.id);
    if (text === undefined) return;
    texts.delete(message.id);
    const structured = (message.result as { structuredContent?: unknown }).structuredContent;
    if (typeof structured !== "object" || structured === null || Array.isArray(structured)) return;
    attachReceivedJson(structured, () => structuredContentText(text));
  }

  let handler: MessageHandler | undefined;
  let wrapped: MessageHandler | undefined;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set(next: MessageHandler | undefined) {
      handler = next;
      wrapped =
        next === undefined
          ? undefined
          : (message, extra) => {
              keepText(message);
              handler?.(message, extra);
            };
    },
  });
  const close = transport.close.bind(transport);
  Object.defineProperty(transport, "heldTexts", { get: () => texts.size });
  transport.close = async () => {
    texts.clear();
    await close();
  };
  return transport as HttpUpstreamTransport;
}
