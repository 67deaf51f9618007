import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  encodePayloadText,
  OFF_THREAD_HASH_MIN_BYTES,
  startEncodingPayload,
  startEncodingStorable,
} from "./encode-payload.js";

function expected(text: string) {
  const body = Buffer.from(text, "utf8");
  return { body, sha256: createHash("sha256").update(body).digest("hex") };
}

describe("encodePayloadText", () => {
  it("gives the exact UTF-8 bytes of any text and their sha256, computed once", () => {
    const texts = [
      '{"items":[{"id":"a"}]}',
      '{"name":"Zoë","city":"Kraków","mood":"😀"}',
      // A lone surrogate is stored as U+FFFD, exactly as Buffer.from would encode it.
      '{"broken":"\ud800"}',
      "",
    ];
    expect(texts.map((text) => encodePayloadText(text, Buffer.byteLength(text)))).toEqual(
      texts.map(expected),
    );
  });

  it("returns a Buffer of its own, not a slice of the shared pool", () => {
    const { body } = encodePayloadText("[1,2,3]", 7);
    expect({ length: body.byteLength, ownsItsMemory: body.buffer.byteLength === 7 }).toEqual({
      length: 7,
      ownsItsMemory: true,
    });
  });

  it("hashes a large payload on the helper thread with the same bytes and digest", async () => {
    const large = `["${"é".repeat(OFF_THREAD_HASH_MIN_BYTES / 2)}"]`;
    const small = '{"small":true}';
    const texts = [large, small];
    const started = texts.map((text) => startEncodingPayload(text, Buffer.byteLength(text)));
    const digests = await Promise.all(started.map(({ sha256 }) => sha256));
    expect({
      sharedMemory: started.map(({ body }) => body.buffer instanceof SharedArrayBuffer),
      // Compared with Buffer#equals: a deep comparison of large bytes one by one is needlessly slow.
      sameBytes: started.map(({ body }, index) => body.equals(expected(texts[index] ?? "").body)),
      digests,
    }).toEqual({
      sharedMemory: [true, false],
      sameBytes: [true, true],
      digests: texts.map((text) => expected(text).sha256),
    });
  });
});

describe("startEncodingStorable", () => {
  const encodeText = async (text: string, asReceived = true) => {
    const { source, encoding } = startEncodingStorable(
      { text, asReceived },
      Buffer.byteLength(text),
    );
    return {
      text: source.text,
      body: encoding.body.toString("utf8"),
      sha256: await encoding.sha256,
    };
  };

  it("escapes the lone surrogates of a text block (small, and hashed off the thread), keeping a real U+FFFD", async () => {
    const small = '{"a":"\ud800 \ufffd"}';
    const large = `{"a":"\udc00","pad":"${"x".repeat(OFF_THREAD_HASH_MIN_BYTES)}"}`;
    const escapedLarge = large.replace("\udc00", "\\udc00");
    expect(await encodeText(small)).toEqual({
      text: '{"a":"\\ud800 \ufffd"}',
      ...expected('{"a":"\\ud800 \ufffd"}'),
      body: '{"a":"\\ud800 \ufffd"}',
    });
    const big = await encodeText(large);
    expect({ same: big.text === escapedLarge, sha256: big.sha256 }).toEqual({
      same: true,
      sha256: expected(escapedLarge).sha256,
    });
  });

  it("leaves a well-formed text holding U+FFFD, and text it serialized itself, as they are", async () => {
    expect(await encodeText('{"a":"\ufffd"}')).toEqual({
      text: '{"a":"\ufffd"}',
      body: '{"a":"\ufffd"}',
      sha256: expected('{"a":"\ufffd"}').sha256,
    });
    expect((await encodeText("\ud800", false)).body).toBe("\ufffd");
  });
});
