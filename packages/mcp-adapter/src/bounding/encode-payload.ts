import { createHash } from "node:crypto";
import { hashOffThread } from "./hash-off-thread.js";

/** A payload's stored bytes and their digest, computed once. */
export interface EncodedPayload {
  body: Buffer;
  /** Lowercase hex sha256 of `body`. */
  sha256: string;
}

/**
 * Encodes a payload text as UTF-8 into one Buffer of exactly `byteLength` bytes (the caller's
 * `Buffer.byteLength(text)`, so the text is not measured twice) and hashes it once. The Buffer
 * is never pooled, so it may be handed to a store to keep. Limits: the work is synchronous on the
 * calling thread (about 0.3x a JSON.parse of the same text for ASCII, see bench/).
 */
export function encodePayloadText(text: string, byteLength: number): EncodedPayload {
  const body = writeUtf8(Buffer.allocUnsafeSlow(byteLength), text);
  return { body, sha256: createHash("sha256").update(body).digest("hex") };
}

/** `text` written as UTF-8 into `target` (sized by Buffer.byteLength), cut to what was written. */
function writeUtf8(target: Buffer, text: string): Buffer {
  const written = target.write(text, 0, target.length, "utf8");
  return written === target.length ? target : target.subarray(0, written);
}

/** Payloads of at least this many bytes are hashed on a helper thread while the caller parses. */
export const OFF_THREAD_HASH_MIN_BYTES = 8 * 1024 * 1024;

/** A payload's bytes, with their sha256 still being computed. */
export interface EncodingPayload {
  body: Buffer;
  sha256: Promise<string>;
}

/**
 * Like `encodePayloadText`, but a payload of OFF_THREAD_HASH_MIN_BYTES or more is encoded into
 * shared memory and hashed on a helper thread, so the caller's JSON.parse overlaps the hash (on
 * a machine with a spare core). Falls back to hashing on the calling thread when the helper is
 * unavailable. The caller must not write `body`; it may hand it to a store once sha256 settles.
 */
export function startEncodingPayload(text: string, byteLength: number): EncodingPayload {
  if (byteLength < OFF_THREAD_HASH_MIN_BYTES) {
    const { body, sha256 } = encodePayloadText(text, byteLength);
    return { body, sha256: Promise.resolve(sha256) };
  }
  const body = writeUtf8(Buffer.from(new SharedArrayBuffer(byteLength)), text);
  const sha256 = hashOffThread(body).then(
    (digest) => digest ?? createHash("sha256").update(body).digest("hex"),
  );
  return { body, sha256 };
}
