import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";
import { describe, expect, it } from "vitest";
import { createResultGuardFetch } from "./http-result-guard.js";

/** A tools/call request as the SDK posts it. */
function callBody(id: number): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t" } });
}

/** An answer to request `id` as an upstream in another language may write it (pretty, literals). */
function answer(id: number): string {
  return `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":{
  "big": 12345678901234567890, "zero": -0, "lone": "\\ud800", "id": ${id}
}}}`;
}

/** An SSE event carrying `data` (one `data:` line per line), with an event id when given. */
function sse(data: string, id?: string): string {
  return `${id === undefined ? "" : `id: ${id}\n`}data: ${data.split("\n").join("\ndata: ")}\n\n`;
}

const SSE_HEADERS = { "content-type": "text/event-stream" };

/** A response body the test writes to while the guard reads it. */
function pushStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(started) {
      controller = started;
    },
  });
  return {
    response: () => new Response(stream, { headers: SSE_HEADERS }),
    write: (text: string) => controller?.enqueue(encoder.encode(text)),
    end: () => controller?.close(),
  };
}

/** Reads events off a guarded SSE body as the SDK's transport does (TextDecoderStream, parser). */
function sdkEvents(response: Response): () => Promise<EventSourceMessage | undefined> {
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  return async () => (await reader.read()).value;
}

async function allEvents(response: Response): Promise<EventSourceMessage[]> {
  const next = sdkEvents(response);
  const events: EventSourceMessage[] = [];
  for (let event = await next(); event !== undefined; event = await next()) events.push(event);
  return events;
}

/**
 * A guarded fetch over a base fetch that answers each request with the next of `answers`,
 * recording what it was sent and the texts the guard kept.
 */
function guardOver(answers: ((init: RequestInit | undefined) => Response)[]) {
  const kept: { id: unknown; text: string }[] = [];
  const sent: { method: string | undefined; headers: Headers }[] = [];
  const guarded = createResultGuardFetch(
    "streams",
    async (_input, init) => {
      sent.push({ method: init?.method, headers: new Headers(init?.headers) });
      const next = answers.shift();
      if (next === undefined) throw new Error("no answer left");
      return next(init);
    },
    (id, text) => kept.push({ id, text }),
  );
  return {
    kept,
    sent,
    post: (body: string) => guarded("http://127.0.0.1/mcp", { method: "POST", body }),
    get: (lastEventId?: string) =>
      guarded("http://127.0.0.1/mcp", {
        method: "GET",
        headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
      }),
  };
}

const accepted = () => new Response(null, { status: 202 });

describe("the result guard on the standalone GET stream", () => {
  it("keeps the bytes of a tools/call answer that arrives there (the POST was answered 202), and passes other events as they were", async () => {
    const stream = pushStream();
    const guard = guardOver([stream.response, accepted]);
    const next = sdkEvents(await guard.get());
    const notification = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';
    stream.write(sse(notification, "g1"));
    expect(await next()).toEqual({ id: "g1", event: undefined, data: notification });
    await guard.post(callBody(7));
    stream.write(sse(answer(7), "g2"));
    expect(await next()).toEqual({ id: "g2", event: undefined, data: answer(7) });
    expect(guard.kept).toEqual([{ id: 7, text: answer(7) }]);
  });

  it("keeps an answer once: the request ends when its answer passes", async () => {
    const stream = pushStream();
    const guard = guardOver([stream.response, accepted]);
    const next = sdkEvents(await guard.get());
    await guard.post(callBody(7));
    stream.write(sse(answer(7)));
    stream.write(sse(answer(7)));
    expect([(await next())?.data, (await next())?.data]).toEqual([answer(7), answer(7)]);
    expect(guard.kept).toEqual([{ id: 7, text: answer(7) }]);
  });

  it("replaces an answer with result null by an error result naming the problem (the SDK left the call waiting)", async () => {
    const stream = pushStream();
    const guard = guardOver([stream.response, accepted]);
    const next = sdkEvents(await guard.get());
    await guard.post(callBody(8));
    stream.write(sse('{"jsonrpc":"2.0","id":8,"result":null}'));
    expect(JSON.parse((await next())?.data ?? "")).toEqual({
      jsonrpc: "2.0",
      id: 8,
      result: {
        content: [
          {
            type: "text",
            text: 'upstream "streams" answered tools/call with result null, not a result object; the call failed.',
          },
        ],
        isError: true,
      },
    });
  });

  it("forgets the request of a failed POST and of a cancelled one: their answers are not kept", async () => {
    const stream = pushStream();
    const guard = guardOver([
      stream.response,
      () => new Response("busy", { status: 503 }),
      accepted,
      accepted,
    ]);
    const next = sdkEvents(await guard.get());
    await guard.post(callBody(9));
    await guard.post(callBody(10));
    await guard.post(
      JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 10, reason: "timeout" },
      }),
    );
    stream.write(sse(answer(9)));
    stream.write(sse(answer(10)));
    expect([(await next())?.data, (await next())?.data]).toEqual([answer(9), answer(10)]);
    expect(guard.kept).toEqual([]);
  });
});

describe("the result guard on a resumed stream", () => {
  it("keeps the bytes of an answer replayed on the GET that resumes a dropped POST stream (Last-Event-ID)", async () => {
    const guard = guardOver([
      () => new Response(sse("", "p1"), { headers: SSE_HEADERS }),
      () => new Response(sse(answer(7), "p2"), { headers: SSE_HEADERS }),
    ]);
    expect(await allEvents(await guard.post(callBody(7)))).toEqual([
      { id: "p1", event: undefined, data: "" },
    ]);
    expect(guard.kept).toEqual([]);
    expect(await allEvents(await guard.get("p1"))).toEqual([
      { id: "p2", event: undefined, data: answer(7) },
    ]);
    expect(guard.sent[1]?.headers.get("last-event-id")).toBe("p1");
    expect(guard.kept).toEqual([{ id: 7, text: answer(7) }]);
  });

  it("replaces a replayed result null by an error result", async () => {
    const guard = guardOver([
      () => new Response(sse("", "p1"), { headers: SSE_HEADERS }),
      () =>
        new Response(sse('{"jsonrpc":"2.0","id":7,"result":null}', "p2"), {
          headers: SSE_HEADERS,
        }),
    ]);
    await allEvents(await guard.post(callBody(7)));
    const [replayed] = await allEvents(await guard.get("p1"));
    expect(JSON.parse(replayed?.data ?? "")).toMatchObject({
      id: 7,
      result: { isError: true },
    });
  });
});

describe("the result guard on a batch", () => {
  const BATCH_CALLS = `[${callBody(7)},${callBody(8)}]`;

  it("keeps the bytes of each tools/call answer in a JSON batch body, and the body's bytes", async () => {
    const body = `[\n  ${answer(7)} ,\n  {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}},${answer(8)}\n]`;
    const guard = guardOver([
      () => new Response(body, { headers: { "content-type": "application/json" } }),
    ]);
    expect(await (await guard.post(BATCH_CALLS)).text()).toBe(body);
    expect(guard.kept).toEqual([
      { id: 7, text: answer(7) },
      { id: 8, text: answer(8) },
    ]);
  });

  it("replaces a result null in a JSON batch body and keeps the other items as received", async () => {
    const body = `[${answer(7)}, {"jsonrpc":"2.0","id":8,"result":null}]`;
    const guard = guardOver([
      () => new Response(body, { headers: { "content-type": "application/json" } }),
    ]);
    const text = await (await guard.post(BATCH_CALLS)).text();
    expect(text.startsWith(`[${answer(7)},`)).toBe(true);
    expect(JSON.parse(text)[1]).toMatchObject({ id: 8, result: { isError: true } });
    expect(guard.kept).toEqual([{ id: 7, text: answer(7) }]);
  });

  it("hands the SDK a batch in an SSE event as one event per message (it cannot read an array), each guarded, the event id on the last", async () => {
    const data = `[${answer(7)},\n {"jsonrpc":"2.0","id":8,"result":null}]`;
    const guard = guardOver([
      () => new Response(`event: message\n${sse(data, "b1")}`, { headers: SSE_HEADERS }),
    ]);
    const events = await allEvents(await guard.post(BATCH_CALLS));
    expect(events.map(({ id, event }) => ({ id, event }))).toEqual([
      { id: undefined, event: "message" },
      { id: "b1", event: "message" },
    ]);
    expect(events[0]?.data).toBe(answer(7));
    expect(JSON.parse(events[1]?.data ?? "")).toMatchObject({ id: 8, result: { isError: true } });
    expect(guard.kept).toEqual([{ id: 7, text: answer(7) }]);
  });

  it("splits a batch event on the GET stream too", async () => {
    const stream = pushStream();
    const guard = guardOver([stream.response, accepted]);
    const next = sdkEvents(await guard.get());
    await guard.post(BATCH_CALLS);
    stream.write(sse(`[${answer(8)},${answer(7)}]`, "g9"));
    expect([await next(), await next()]).toEqual([
      { id: undefined, event: undefined, data: answer(8) },
      { id: "g9", event: undefined, data: answer(7) },
    ]);
    expect(guard.kept.map(({ id }) => id)).toEqual([8, 7]);
  });
});
