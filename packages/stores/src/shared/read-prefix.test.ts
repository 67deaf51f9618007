import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readPrefix } from "./read-prefix.js";

const chunked = (...chunks: string[]) =>
  Readable.from(
    chunks.map((chunk) => Buffer.from(chunk)),
    { objectMode: false },
  );

async function collect(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString();
}

describe("readPrefix", () => {
  it("takes exactly the prefix across chunk boundaries and leaves the rest in the stream", async () => {
    const stream = chunked("he", "ad", "erBO", "DY");
    expect((await readPrefix(stream, 6)).toString()).toBe("header");
    expect(await collect(stream)).toBe("BODY");
  });

  it("rejects when the stream ends before the prefix is complete", async () => {
    const stream = new PassThrough();
    stream.end(Buffer.from("abc"));
    await expect(readPrefix(stream, 10)).rejects.toThrow(
      "the stream ended after 3 of 10 prefix bytes",
    );
  });
});
