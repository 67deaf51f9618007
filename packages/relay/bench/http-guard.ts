// What the relay's HTTP result guard costs on a large tools/call answer (docs/sdk-notes.md 20):
// the guard reads the body (JSON: the text; SSE: eventsource-parser, one JSON.parse per event,
// the event written on) and keeps the answer's text for the stored bytes (SPEC.md §10). Timed on
// one message of MiB size, per round paired with what the SDK's transport does with the body
// without the guard (JSON: response.json(); SSE: TextDecoderStream, EventSourceParserStream,
// JSON.parse of the data), as 64 KiB chunks from memory (no socket). Both variants run in this
// process, interleaved per round after a full GC; two warm-up rounds are dropped.
// Run from packages/relay: node --expose-gc --import tsx bench/http-guard.ts [MiB] [rounds]
import { performance } from "node:perf_hooks";
import { formatMs, median, printTable, quantile } from "@bounded-mcp/bench-utils";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { createResultGuardFetch } from "../src/http-result-guard.js";
import { createPayloadText } from "../src/test-support/payload.mjs";

const mebibytes = Number(process.argv[2] ?? "20");
const rounds = Number(process.argv[3] ?? "11");
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

const CALL = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t" } });
const message = `{"result":{"content":[{"type":"text","text":"done"}],"structuredContent":${createPayloadText(mebibytes)}},"jsonrpc":"2.0","id":7}`;
const bodies = {
  "application/json": new TextEncoder().encode(message),
  "text/event-stream": new TextEncoder().encode(`event: message\ndata: ${message}\n\n`),
};
const CHUNK = 64 * 1024;

function response(type: keyof typeof bodies): Response {
  const bytes = bodies[type];
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + CHUNK));
      at += CHUNK;
    },
  });
  return new Response(body, { headers: { "content-type": type } });
}

/** What StreamableHTTPClientTransport does with a POST's answer (its parse, not its zod check). */
async function sdkRead(type: keyof typeof bodies, answer: Response): Promise<unknown> {
  if (type === "application/json") return answer.json();
  const reader = (answer.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let parsed: unknown;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parsed = JSON.parse(read.value.data);
  }
  return parsed;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  gc?.();
  const start = performance.now();
  await work();
  return performance.now() - start;
}

const rows = [];
for (const type of Object.keys(bodies) as (keyof typeof bodies)[]) {
  let kept = 0;
  const guarded = createResultGuardFetch(
    "bench",
    async () => response(type),
    () => {
      kept += 1;
    },
  );
  const alone: number[] = [];
  const withGuard: number[] = [];
  for (let round = 0; round < rounds + 2; round += 1) {
    const a = await timed(() => sdkRead(type, response(type)));
    const g = await timed(async () =>
      sdkRead(type, await guarded("http://127.0.0.1/", { method: "POST", body: CALL })),
    );
    if (round < 2) continue;
    alone.push(a);
    withGuard.push(g);
  }
  if (kept !== rounds + 2) throw new Error(`the guard kept ${kept} texts`);
  const ratios = withGuard.map((value, index) => value / (alone[index] as number));
  rows.push({
    body: `${type}, ${(bodies[type].byteLength / 1024 / 1024).toFixed(0)} MiB`,
    "SDK read alone (baseline)": formatMs(median(alone)),
    "guard + SDK read": formatMs(median(withGuard)),
    "guarded / alone": `${median(ratios).toFixed(2)}x (p10 ${quantile(ratios, 0.1).toFixed(2)}, p90 ${quantile(ratios, 0.9).toFixed(2)})`,
  });
}
printTable(
  `the HTTP result guard on one answer (medians of ${rounds} rounds; ratios per round)`,
  rows,
);
