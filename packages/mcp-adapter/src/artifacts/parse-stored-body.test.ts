import { exactLiteral, isExactNumber } from "@bounded-mcp/query-core";
import { describe, expect, it } from "vitest";
import { OFF_THREAD_STORED_TEST_MIN_BYTES } from "../bounding/encode-payload.js";
import {
  parseStoredArtifact,
  parseStoredBody,
  parseStoredBodyOffThread,
} from "./artifact-service.js";

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

describe("parseStoredBodyOffThread", () => {
  /** A JSON body past the off-thread size, as a view into a larger Buffer (as stores return them). */
  const largeBody = (items: string) => {
    const text = `{"pad":"${"x".repeat(OFF_THREAD_STORED_TEST_MIN_BYTES)}","items":[${items}]}`;
    return Buffer.from(`##${text}##`, "utf8").subarray(2, 2 + Buffer.byteLength(text));
  };
  const itemsOf = (document: unknown) => (document as { items: unknown[] }).items;

  it("keeps inexact literals of a large body exactly (the thread found a candidate)", async () => {
    const items = itemsOf(
      await parseStoredBodyOffThread(
        largeBody('12345678901234567890,1e400,-0,"Zoë",1.5'),
        "application/json",
      ),
    );
    expect(
      items.map((item) => (isExactNumber(item) ? `exact ${exactLiteral(item)}` : item)),
    ).toEqual(["exact 12345678901234567890", "exact 1e400", "exact -0", "Zoë", 1.5]);
  });

  it("gives JSON.parse's document for a large body without candidates", async () => {
    const body = largeBody('1,2.5,-3,"Kraków",123456789012345');
    expect(itemsOf(await parseStoredBodyOffThread(body, "application/json"))).toEqual([
      1,
      2.5,
      -3,
      "Kraków",
      123456789012345,
    ]);
  });

  it("answers what parseStoredBody answers for small and text/plain bodies", async () => {
    const small = Buffer.from('{"id":12345678901234567890}');
    const [exact] = Object.values(
      (await parseStoredBodyOffThread(small, "application/json")) as object,
    );
    expect(isExactNumber(exact) ? exactLiteral(exact) : exact).toBe("12345678901234567890");
    expect(await parseStoredBodyOffThread(Buffer.from("a\nb"), "text/plain")).toEqual({
      lines: ["a", "b"],
    });
  });

  it("rejects a large body that is not JSON with JSON.parse's error", async () => {
    const body = Buffer.from(`{"pad":"${"x".repeat(OFF_THREAD_STORED_TEST_MIN_BYTES)}",`);
    await expect(parseStoredBodyOffThread(body, "application/json")).rejects.toThrow(SyntaxError);
  });
});

describe("parseStoredArtifact", () => {
  const literalsOf = (document: unknown) =>
    (document as { items: unknown[] }).items.map((item) =>
      isExactNumber(item) ? `exact ${exactLiteral(item)}` : item,
    );
  const candidate = Buffer.from('{"items":[12345678901234567890,-0,1.5]}');
  const json = "application/json" as const;

  it("parses exactly when the verdict is candidate, or when there is none (an older artifact is tested)", async () => {
    expect([
      literalsOf(await parseStoredArtifact(candidate, { mediaType: json, exactCandidates: true })),
      literalsOf(await parseStoredArtifact(candidate, { mediaType: json })),
    ]).toEqual([
      ["exact 12345678901234567890", "exact -0", 1.5],
      ["exact 12345678901234567890", "exact -0", 1.5],
    ]);
  });

  it("runs plain JSON.parse when the verdict is no candidate (so the verdict must be true to the bytes)", async () => {
    expect(
      literalsOf(await parseStoredArtifact(candidate, { mediaType: json, exactCandidates: false })),
    ).toEqual(JSON.parse(candidate.toString("utf8")).items);
  });

  it("reads text/plain and json-string bodies as before, whatever the verdict", async () => {
    expect([
      await parseStoredArtifact(Buffer.from("a\nb"), {
        mediaType: "text/plain",
        exactCandidates: false,
      }),
      await parseStoredArtifact(Buffer.from('"x\\ud800"'), {
        mediaType: "text/plain",
        bodyEncoding: "json-string",
      }),
    ]).toEqual([{ lines: ["a", "b"] }, { lines: ["x\ud800"] }]);
  });
});
