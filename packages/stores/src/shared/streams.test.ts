import { createHash } from "node:crypto";
import { PassThrough, pipeline, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { readPrefix } from "./read-prefix.js";
import { createVerifiedBody, createVerifyingStream } from "./verifying-stream.js";

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

describe("createVerifyingStream", () => {
  const body = "the body";
  const meta = { byteLength: body.length, sha256: createHash("sha256").update(body).digest("hex") };

  it("passes matching bytes through unchanged", async () => {
    const verifier = createVerifyingStream(meta, () => new Error("mismatch"));
    pipeline(chunked("the ", "bo", "dy"), verifier, () => undefined);
    expect(await collect(verifier)).toBe(body);
  });

  it("fails instead of delivering the last chunk when the bytes differ or are longer or shorter", async () => {
    const outcome = async (...chunks: string[]) => {
      const seen: string[] = [];
      const verifier = createVerifyingStream(meta, () => new Error("mismatch"));
      pipeline(chunked(...chunks), verifier, () => undefined);
      try {
        for await (const part of verifier) seen.push((part as Buffer).toString());
        return { deliveredAll: true, error: null };
      } catch (error) {
        const delivered = seen.join("");
        return { deliveredAll: delivered === chunks.join(""), error: (error as Error).message };
      }
    };
    expect([
      await outcome("the ", "bo", "dY"),
      await outcome("the ", "body", "!"),
      await outcome("the ", "bod"),
    ]).toEqual([
      { deliveredAll: false, error: "mismatch" },
      { deliveredAll: false, error: "mismatch" },
      { deliveredAll: false, error: "mismatch" },
    ]);
  });
});

describe("createVerifiedBody", () => {
  const body = "the body";
  const meta = { byteLength: body.length, sha256: createHash("sha256").update(body).digest("hex") };
  const failureOf = (stream: Readable) =>
    collect(stream).then(
      () => "resolved",
      (error: unknown) =>
        StoreError.isInstance(error)
          ? { message: error.message, cause: (error.cause as Error | undefined)?.message }
          : `not a StoreError: ${String(error)}`,
    );

  it("fails with a StoreError naming the operation when the source fails mid-body, and destroys the source", async () => {
    const source = new PassThrough();
    const verified = createVerifiedBody(source, {
      meta,
      store: "s3",
      operation: "GetObject",
      onMismatch: () => undefined,
    });
    source.write("the ");
    source.destroy(new Error("socket hang up"));
    expect(await failureOf(verified)).toEqual({
      message: "[stores:s3] GetObject failed",
      cause: "socket hang up",
    });
  });

  it("fails with a StoreError and reports the mismatch once when the bytes differ", async () => {
    let mismatches = 0;
    const verified = createVerifiedBody(chunked("the ", "bodY"), {
      meta,
      store: "fs",
      operation: "getStream",
      onMismatch: () => {
        mismatches += 1;
      },
    });
    expect({ failure: await failureOf(verified), mismatches }).toEqual({
      failure: {
        message: "[stores:fs] getStream failed: the body does not match its metadata",
        cause: undefined,
      },
      mismatches: 1,
    });
  });

  it("destroys the source when the reader destroys the body", async () => {
    const source = new PassThrough();
    const verified = createVerifiedBody(source, {
      meta,
      store: "fs",
      operation: "getStream",
      onMismatch: () => undefined,
    });
    const closed = new Promise((resolve) => source.once("close", resolve));
    verified.destroy();
    await closed;
    expect(source.destroyed).toBe(true);
  });
});
