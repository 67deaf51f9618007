import { createHash } from "node:crypto";
import { createMemoryStore } from "@bounded-mcp/stores";
import { describe, expect, it } from "vitest";
import { createTestAdapter, TEST_NOW } from "../../test/support/harness.js";
import {
  OFF_THREAD_HASH_MIN_BYTES,
  startEncodingPayload,
  startEncodingStorable,
} from "./encode-payload.js";
import { takeSpareBytes } from "./spare-bytes.js";

const SPARE_BYTES = Symbol.for("@bounded-mcp/spare-bytes");

function withSpare(result: object, spare: unknown): object {
  Object.defineProperty(result, SPARE_BYTES, { value: spare, configurable: true });
  return result;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("takeSpareBytes", () => {
  it("takes shared memory once, and nothing that is not a Buffer over a SharedArrayBuffer", () => {
    const shared = Buffer.from(new SharedArrayBuffer(16));
    const result = withSpare({ content: [] }, shared);
    expect({
      first: takeSpareBytes(result) === shared,
      again: takeSpareBytes(result),
      unshared: takeSpareBytes(withSpare({}, Buffer.alloc(16))),
      notBytes: takeSpareBytes(withSpare({}, "16 bytes")),
      none: [takeSpareBytes({}), takeSpareBytes(null), takeSpareBytes("text")],
      keys: Object.keys(withSpare({ a: 1 }, shared)),
    }).toEqual({
      first: true,
      again: undefined,
      unshared: undefined,
      notBytes: undefined,
      none: [undefined, undefined, undefined],
      keys: ["a"],
    });
  });
});

describe("encoding a large payload into spare memory", () => {
  const text = `{"name":"Zoë","rows":["${"x".repeat(OFF_THREAD_HASH_MIN_BYTES)}"]}`;
  const byteLength = Buffer.byteLength(text);

  it("writes the payload's exact bytes at the start of a spare buffer large enough, hashed as usual", async () => {
    const spare = Buffer.from(new SharedArrayBuffer(byteLength + 100)).fill(0x2a);
    const encoding = startEncodingPayload(text, byteLength, spare);
    expect({
      sameMemory: encoding.body.buffer === spare.buffer && encoding.body.byteOffset === 0,
      exact: encoding.body.equals(Buffer.from(text)),
      sha256: await encoding.sha256,
      mayHold: await encoding.mayHoldInexactNumbers,
    }).toEqual({
      sameMemory: true,
      exact: true,
      sha256: sha256(Buffer.from(text)),
      mayHold: false,
    });
  });

  it("takes fresh memory when the spare buffer is too small or not shared", async () => {
    const small = Buffer.from(new SharedArrayBuffer(byteLength - 1));
    const unshared = Buffer.alloc(byteLength + 100) as Buffer;
    const bodies = [small, unshared].map((spare) => startEncodingPayload(text, byteLength, spare));
    expect(
      bodies.map((encoding, index) => ({
        fresh: encoding.body.buffer !== [small, unshared][index]?.buffer,
        exact: encoding.body.equals(Buffer.from(text)),
      })),
    ).toEqual([
      { fresh: true, exact: true },
      { fresh: true, exact: true },
    ]);
    await Promise.all(bodies.map((encoding) => encoding.sha256));
  });

  it("encodes a text block with lone surrogates again into fresh memory, escaped, leaving the spare to the helper thread", async () => {
    const broken = `["\ud800${"x".repeat(OFF_THREAD_HASH_MIN_BYTES)}"]`;
    const spare = Buffer.from(new SharedArrayBuffer(2 * broken.length));
    const { source, encoding } = startEncodingStorable(
      { text: broken, asReceived: true },
      Buffer.byteLength(broken),
      spare,
    );
    const escaped = `["\\ud800${"x".repeat(OFF_THREAD_HASH_MIN_BYTES)}"]`;
    expect({
      text: source.text === escaped,
      fresh: encoding.body.buffer !== spare.buffer,
      exact: encoding.body.equals(Buffer.from(escaped)),
      sha256: await encoding.sha256,
    }).toEqual({ text: true, fresh: true, exact: true, sha256: sha256(Buffer.from(escaped)) });
  });
});

describe("the bounder and a result that carries spare memory", () => {
  it("stores the payload in that memory, exactly, and takes it from the result", async () => {
    const memory = createMemoryStore({ maxBytes: 64 * 1024 * 1024, clock: () => TEST_NOW });
    // The memory store, recording the bodies it is handed to stage.
    const staged: Uint8Array[] = [];
    const recording = {
      ...memory,
      stage: (body: Uint8Array) => {
        staged.push(body);
        return memory.stage(body);
      },
    };
    const bounded = createTestAdapter({ artifactStore: recording });
    try {
      const text = `{"rows":["${"é".repeat(OFF_THREAD_HASH_MIN_BYTES)}"]}`;
      const spare = Buffer.from(new SharedArrayBuffer(2 * Buffer.byteLength(text)));
      const result = withSpare({ content: [{ type: "text", text }] }, spare);
      const answer = (await bounded.boundResult(result as never)) as unknown as {
        structuredContent: { responseMeta: { artifact: { id: string; sha256: string } } };
      };
      const { artifact } = answer.structuredContent.responseMeta;
      const stored = await bounded.store.get(artifact.id);
      const body = stored !== null && "body" in stored ? stored.body : undefined;
      const [given] = staged;
      expect({
        sha256: artifact.sha256,
        exact: body !== undefined && Buffer.from(body).equals(Buffer.from(text)),
        inSpare: staged.length === 1 && given?.buffer === spare.buffer && given.byteOffset === 0,
        taken: takeSpareBytes(result),
      }).toEqual({
        sha256: sha256(Buffer.from(text)),
        exact: true,
        inSpare: true,
        taken: undefined,
      });
    } finally {
      await bounded.dispose();
    }
  });
});
