import { describe, expect, it } from "vitest";
import { parseStoredBody } from "./artifact-service.js";

describe("parseStoredBody", () => {
  it("parses ASCII and non-ASCII JSON bodies exactly as JSON.parse of their UTF-8 text", () => {
    const texts = [
      '{"items":[{"id":"a","score":1}]}',
      '{"name":"Zoë","city":"Kraków","mood":"😀","latin1":"\u00ff"}',
    ];
    expect(
      texts.map((text) => parseStoredBody(Buffer.from(text, "utf8"), "application/json")),
    ).toEqual(texts.map((text) => JSON.parse(text)));
  });

  it("reads only the view it is given, and text/plain as lines", () => {
    const whole = Buffer.from('xx{"ok":"é"}yyfirst\nsecond é');
    const json = whole.subarray(2, 13);
    const text = whole.subarray(15);
    expect({
      json: parseStoredBody(json, "application/json"),
      text: parseStoredBody(text, "text/plain"),
    }).toEqual({ json: { ok: "é" }, text: { lines: ["first", "second é"] } });
  });
});
