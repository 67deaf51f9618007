import { setRawCallToolResult } from "@bounded-mcp/mcp-adapter";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { createResultGuardFetch } from "./http-result-guard.js";
import { createHttpUpstreamTransport } from "./http-upstream-transport.js";
import type { ToolHooks } from "./relay-hooks.js";
import { createHttpClientTransport } from "./sdk/transports.js";
import {
  LITERAL_STRUCTURED,
  type LiteralHttpUpstreamOptions,
  startLiteralHttpUpstream,
} from "./test-support/literal-http-upstream.js";
import { type StartedRelay, startRelay } from "./test-support/start-relay.js";
import {
  type Artifact,
  AS_SENT,
  queryText,
  sha256,
  storedText,
} from "./test-support/stored-answers.js";

const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayOver(
  options: LiteralHttpUpstreamOptions,
  hooks?: ToolHooks,
): Promise<StartedRelay> {
  const upstream = await startLiteralHttpUpstream(options);
  cleanups.push(() => upstream.close());
  const relay = await startRelay({
    upstream: { kind: "http", url: upstream.url, name: "literal-http" },
    ...(hooks === undefined ? {} : { hooks }),
  });
  cleanups.push(() => relay.close());
  return relay;
}

async function callLiteral(relay: StartedRelay): Promise<Artifact> {
  const result = (await relay.downstream.request(
    { method: "tools/call", params: { name: "literal" } } as never,
    AS_SENT,
  )) as { structuredContent: { responseMeta: { artifact: Artifact } } };
  return result.structuredContent.responseMeta.artifact;
}

const MODES: [string, LiteralHttpUpstreamOptions][] = [
  ["a JSON response (enableJsonResponse: true)", { json: true }],
  ["an SSE response (enableJsonResponse: false)", { json: false }],
  [
    "an SSE response with CRLF lines written in 7-byte pieces",
    { json: false, crlf: true, pieceBytes: 7 },
  ],
  ["a JSON response written in 5-byte pieces", { json: true, pieceBytes: 5 }],
];

describe.each(MODES)("structuredContent from a streamable HTTP upstream, as %s", (_, mode) => {
  it("is stored as the upstream's bytes: byteLength, sha256 and the body are of its text (they were of the value serialized again)", async () => {
    const relay = await relayOver(mode);
    const artifact = await callLiteral(relay);
    expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
      byteLength: Buffer.byteLength(LITERAL_STRUCTURED),
      sha256: sha256(LITERAL_STRUCTURED),
    });
    expect(await storedText(relay, artifact.id)).toBe(LITERAL_STRUCTURED);
  });

  it("answers the number literals a double cannot hold and the lone surrogates as the upstream wrote them", async () => {
    const relay = await relayOver(mode);
    const { id } = await callLiteral(relay);
    expect(await queryText(relay, id, "/big")).toContain('"response":12345678901234567890');
    expect(await queryText(relay, id, "/huge")).toContain('"response":1e400');
    expect(await queryText(relay, id, "/negativeZero")).toContain('"response":-0');
    expect(await queryText(relay, id, "/lone")).toContain('"response":"\\ud800 and \\udc00"');
    expect(await queryText(relay, id, "/text")).toContain('"response":"café ✓ {\\"[\\"}"');
  });
});

describe("structuredContent from a streamable HTTP upstream after a tool hook", () => {
  it("keeps the upstream's bytes when the hook left it unchanged (read it, passed the same object back)", async () => {
    const relay = await relayOver(
      { json: false },
      {
        literal: ({ result }) => {
          expect((result.structuredContent as { big: number }).big).toBe(
            Number("12345678901234567890"),
          );
          setRawCallToolResult({ structuredContent: result.structuredContent });
        },
      },
    );
    const artifact = await callLiteral(relay);
    expect(artifact.sha256).toBe(sha256(LITERAL_STRUCTURED));
    expect(await queryText(relay, artifact.id, "/big")).toContain(
      '"response":12345678901234567890',
    );
  });

  it("is the value serialized again when the hook changed it in place", async () => {
    const relay = await relayOver(
      { json: true },
      {
        literal: ({ result }) => {
          (result.structuredContent as { hooked?: boolean }).hooked = true;
        },
      },
    );
    const artifact = await callLiteral(relay);
    const expected = JSON.stringify({ ...JSON.parse(LITERAL_STRUCTURED), hooked: true });
    expect({ byteLength: artifact.byteLength, sha256: artifact.sha256 }).toEqual({
      byteLength: Buffer.byteLength(expected),
      sha256: sha256(expected),
    });
    expect(await storedText(relay, artifact.id)).toBe(expected);
  });

  it("is the value serialized again when the hook changed a nested number in place", async () => {
    const relay = await relayOver(
      { json: false },
      {
        literal: ({ result }) => {
          const rows = (result.structuredContent as { rows: { price: number }[] }).rows;
          (rows[399] as { price: number }).price = 2;
        },
      },
    );
    const artifact = await callLiteral(relay);
    const value = JSON.parse(LITERAL_STRUCTURED) as { rows: { price: number }[] };
    (value.rows[399] as { price: number }).price = 2;
    expect(artifact.sha256).toBe(sha256(JSON.stringify(value)));
  });
});

describe("the texts the HTTP upstream transport keeps", () => {
  it("are only those of tools/call results with an object structuredContent", async () => {
    const upstream = await startLiteralHttpUpstream({ json: false });
    cleanups.push(() => upstream.close());
    const kept: { id: unknown; text: string }[] = [];
    const client = new Client({ name: "kept-texts", version: "1.0.0" });
    await client.connect(
      createHttpClientTransport(
        new URL(upstream.url),
        undefined,
        createResultGuardFetch("literal-http", fetch, (id, text) => kept.push({ id, text })),
      ),
    );
    cleanups.push(() => client.close());
    await client.listTools();
    await client.callTool({ name: "plain" });
    await client.callTool({ name: "small" });
    expect(kept.map(({ text }) => JSON.parse(text))).toEqual([
      {
        jsonrpc: "2.0",
        id: kept[0]?.id,
        result: { content: [{ type: "text", text: "small" }], structuredContent: { small: true } },
      },
    ]);
  });

  it("are released when the SDK delivers the result", async () => {
    const upstream = await startLiteralHttpUpstream({ json: true });
    cleanups.push(() => upstream.close());
    const transport = createHttpUpstreamTransport({ url: new URL(upstream.url), name: "literal" });
    const client = new Client({ name: "held-texts", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const literal = await client.request(
      { method: "tools/call", params: { name: "literal" } },
      AS_SENT,
    );
    await client.request({ method: "tools/call", params: { name: "small" } }, AS_SENT);
    expect(transport.heldTexts).toBe(0);
    const received = (literal["structuredContent"] as Record<symbol, () => string>)[
      Symbol.for("@bounded-mcp/received-json")
    ];
    expect(received?.()).toBe(LITERAL_STRUCTURED);
  });
});
