import { describe, expect, it } from "vitest";
import {
  escapeLoneSurrogates,
  parsePayload,
  selectPayloadText,
  storablePayloadText,
} from "./payload.js";

describe("selectPayloadText", () => {
  it("takes structuredContent as the text its transport attached (the relay's stdio wire)", () => {
    const wire = '{ "n" : 1.50 }';
    const structuredContent = JSON.parse(wire) as Record<string, unknown>;
    Object.defineProperty(structuredContent, Symbol.for("@bounded-mcp/received-json"), {
      value: () => wire,
      enumerable: false,
    });
    const result = { content: [{ type: "text" as const, text: "n" }], structuredContent };
    expect({
      attached: selectPayloadText(result).text,
      plain: selectPayloadText({ ...result, structuredContent: { n: 1.5 } }).text,
      visible: JSON.stringify(result.structuredContent),
    }).toEqual({ attached: wire, plain: '{"n":1.5}', visible: '{"n":1.5}' });
  });

  it("serializes structuredContent too deep for JSON.stringify when no text came with it", () => {
    let nested: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) nested = [nested];
    const picked = selectPayloadText({
      content: [{ type: "text", text: "t" }],
      structuredContent: { nested },
    });
    expect(picked.text.length).toBe('{"nested":}'.length + 1 + 2 * 100_000);
    expect(picked.text.startsWith('{"nested":[[[')).toBe(true);
    expect(picked.text.endsWith("]]]}")).toBe(true);
    expect(picked.text.includes("[1]")).toBe(true);
  });

  it("writes the lone surrogates of a JSON text as escapes and keeps the value", () => {
    const text = '{"a":"\ud800 \ud83d\ude00 \udc00"}';
    const picked = storablePayloadText(selectPayloadText({ content: [{ type: "text", text }] }));
    expect({ text: picked.text, payload: parsePayload(picked) }).toEqual({
      text: '{"a":"\\ud800 \ud83d\ude00 \\udc00"}',
      payload: {
        text: '{"a":"\\ud800 \ud83d\ude00 \\udc00"}',
        mediaType: "application/json",
        document: { a: "\ud800 \ud83d\ude00 \udc00" },
      },
    });
  });

  it("stores a text that is not JSON and holds lone surrogates as its JSON string, marked", () => {
    const text = "one \udfff\ntwo";
    const picked = storablePayloadText(selectPayloadText({ content: [{ type: "text", text }] }));
    expect(parsePayload(picked)).toEqual({
      text: '"one \\udfff\\ntwo"',
      mediaType: "text/plain",
      document: { lines: ["one \udfff", "two"] },
      bodyEncoding: "json-string",
    });
  });
});

describe("storablePayloadText", () => {
  it("keeps a well-formed text block and any text serialized here as they are", () => {
    const wellFormed = selectPayloadText({
      content: [{ type: "text", text: "a \ufffd \ud83d\ude00" }],
    });
    const serialized = selectPayloadText({
      content: [{ type: "text", text: "x" }],
      structuredContent: { a: "\ud800" },
    });
    expect([storablePayloadText(wellFormed), storablePayloadText(serialized)]).toEqual([
      wellFormed,
      serialized,
    ]);
    expect(serialized.text).toBe('{"a":"\\ud800"}');
  });
});

describe("escapeLoneSurrogates", () => {
  it("escapes only unpaired surrogates, lowercase as JSON.stringify does", () => {
    const text = "\udbff\ud800\udc00\udc00x\ud800";
    expect(escapeLoneSurrogates(text)).toBe(JSON.stringify(text).slice(1, -1));
  });
});
