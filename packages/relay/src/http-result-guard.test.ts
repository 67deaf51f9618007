import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";
import { describe, expect, it } from "vitest";
import { createResultGuardFetch } from "./http-result-guard.js";

const CALL = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t" } });

/** A response message text whose structuredContent is written as given (pretty, literals). */
const ANSWER = `{"jsonrpc":"2.0","id":7,"result":{"content":[],"structuredContent":{
  "big": 12345678901234567890, "zero": -0,
  "lone": "\\ud800", "text": "  café ✓"
}}}`;

/** SSE bodies as servers may write them: each one's events must reach the SDK unchanged. */
const BODIES: Record<string, string> = {
  "LF, one data line per JSON line": `id: 1\nevent: message\ndata: ${ANSWER.split("\n").join("\ndata: ")}\n\n`,
  "CRLF and a priming event": `id: p\r\ndata: \r\n\r\nretry: 250\r\ndata:${ANSWER.split("\n").join("\r\ndata: ")}\r\n\r\n`,
  "CR only, a comment and a BOM": `\uFEFF: keep-alive\r\rdata: ${ANSWER.split("\n").join("\rdata: ")}\r\r: end\n`,
  "mixed endings and an ignored event type": `event: other\ndata: {"x":1}\n\r\ndata: ${ANSWER.split("\n").join("\r\ndata: ")}\n\r\n`,
};

function chunked(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** The events the SDK's transport reads from `body` (its own pipeline: TextDecoderStream, parser). */
async function sdkEvents(body: ReadableStream<Uint8Array>): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    events.push(read.value);
  }
  return events;
}

async function guarded(body: string, size: number) {
  const kept: { id: unknown; text: string }[] = [];
  const guardFetch = createResultGuardFetch(
    "sse",
    async () =>
      new Response(chunked(body, size), { headers: { "content-type": "text/event-stream" } }),
    (id, text) => kept.push({ id, text }),
  );
  const response = await guardFetch("http://127.0.0.1/", { method: "POST", body: CALL });
  return { events: await sdkEvents(response.body as ReadableStream<Uint8Array>), kept };
}

describe("the result guard's SSE pass-through", () => {
  for (const [name, body] of Object.entries(BODIES)) {
    it(`hands the SDK the events it would read itself, chunked by 1 to 11 bytes: ${name}`, async () => {
      const expected = await sdkEvents(chunked(body, body.length));
      expect(expected.map(({ data }) => data)).toContain(ANSWER);
      for (let size = 1; size <= 11; size += 1) {
        const { events, kept } = await guarded(body, size);
        expect(events).toEqual(expected);
        expect(kept).toEqual([{ id: 7, text: ANSWER }]);
      }
    });
  }
});
