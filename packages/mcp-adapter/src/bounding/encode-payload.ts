import { createHash } from "node:crypto";
import { factsOffThread } from "./hash-off-thread.js";
import { type PayloadText, storablePayloadText } from "./payload.js";

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

/**
 * Payloads of at least this many bytes are hashed and tested for inexact number candidates on a
 * helper thread while the caller parses. Chosen by measured main-thread cost (bench/RESULTS.md):
 * from 64 KiB, encoding into shared memory and posting to the thread costs the calling thread
 * about 0.2x a JSON.parse of the payload, where hashing and the candidate regex in line cost
 * about 0.5x; smaller results (down to inlineBytes) keep both in line.
 */
export const OFF_THREAD_HASH_MIN_BYTES = 64 * 1024;

/**
 * Stored JSON bodies read back of at least this many bytes are tested for inexact number
 * candidates on the helper thread while the caller parses them (parseStoredBodyOffThread). Higher
 * than OFF_THREAD_HASH_MIN_BYTES: a stored body is first copied into a fresh SharedArrayBuffer,
 * and at 64 KiB that copy and the round trip cost the main thread as much as the regex in line
 * (both about 1.37x a plain parse), while from 1 MiB the thread is cheaper (bench/RESULTS.md).
 */
export const OFF_THREAD_STORED_TEST_MIN_BYTES = 1024 * 1024;

/** A payload's bytes, with their sha256 still being computed. */
export interface EncodingPayload {
  body: Buffer;
  sha256: Promise<string>;
  /**
   * Set when the bytes are also being tested for inexact number candidates on the helper thread
   * (mayHoldInexactNumbers of query-core): resolves to that answer, or undefined when the thread
   * failed. Then the caller may JSON.parse the text plainly meanwhile and parse it again exactly
   * (parseJsonExact) only when this is not false (SPEC.md §10). Unset: no test is running.
   */
  mayHoldInexactNumbers?: Promise<boolean | undefined>;
}

/**
 * Like `encodePayloadText`, but a payload of OFF_THREAD_HASH_MIN_BYTES or more is encoded into
 * shared memory, hashed and tested for inexact number candidates on a helper thread
 * (`mayHoldInexactNumbers`), so the caller's JSON.parse overlaps both (on a machine with a spare
 * core). Falls back to hashing on the calling thread when the helper is unavailable (then
 * `mayHoldInexactNumbers` resolves to undefined: unknown). The caller must not write `body`; it
 * may hand it to a store at once. Nothing returned but `body` refers to the bytes (the helper
 * thread lets go of them once it answered, see hash-off-thread.ts), so a caller that drops
 * `body` lets them be freed by the next garbage collection.
 */
export function startEncodingPayload(text: string, byteLength: number): EncodingPayload {
  const body = encodeForHashing(text, byteLength);
  return { body, ...startHashing(body, text) };
}

/**
 * The UTF-8 bytes of `text` (`byteLength` of them, the caller's Buffer.byteLength): in shared
 * memory from OFF_THREAD_HASH_MIN_BYTES, so the helper thread reads them in place (startHashing).
 */
function encodeForHashing(text: string, byteLength: number): Buffer {
  if (byteLength < OFF_THREAD_HASH_MIN_BYTES) {
    return writeUtf8(Buffer.allocUnsafeSlow(byteLength), text);
  }
  return writeUtf8(Buffer.from(new SharedArrayBuffer(byteLength)), text);
}

/**
 * The sha256 of `body` (the UTF-8 bytes of `text`, from encodeForHashing) and, for a body in
 * shared memory, its inexact number candidate test, both started on the helper thread (in line
 * for a smaller body, which gets no test here).
 */
export function startHashing(
  body: Buffer,
  text: string,
): Pick<EncodingPayload, "sha256" | "mayHoldInexactNumbers"> {
  if (!(body.buffer instanceof SharedArrayBuffer)) {
    return { sha256: Promise.resolve(createHash("sha256").update(body).digest("hex")) };
  }
  const facts = factsOffThread(body);
  // The fallback hashes the text (the same UTF-8 bytes, encoded again inside the hash), not
  // `body`: no callback here may hold the bytes, so a caller that handed them to a store can
  // drop them and let them be freed while it parses.
  const sha256 = facts.then(
    (found) => found?.sha256 ?? createHash("sha256").update(text, "utf8").digest("hex"),
  );
  return { sha256, mayHoldInexactNumbers: facts.then((found) => found?.mayHoldInexactNumbers) };
}

/** U+FFFD in UTF-8: what Buffer#write puts where a string holds a lone surrogate. */
const REPLACEMENT_CHARACTER = Buffer.from([0xef, 0xbf, 0xbd]);

/** The text that will be stored, and its bytes being encoded and hashed. */
export interface EncodingSource {
  source: PayloadText;
  encoding: EncodingPayload;
}

/** The text that will be stored and its bytes, not yet hashed (see encodeStorable). */
export interface EncodedSource {
  source: PayloadText;
  body: Buffer;
}

/**
 * The picked text made storable when it must be (SPEC.md §10) and encoded, without hashing: a
 * text block holding lone surrogates is encoded again from storablePayloadText (escaped), since
 * its UTF-8 would hold U+FFFD where the cached text holds the lone surrogate. A payload whose
 * bytes hold no U+FFFD pays one Buffer#indexOf of them (a byte search, about 1% of the encode and
 * hash; bench/well-formed-check.ts), never the isWellFormed scan of the text; only a text with
 * U+FFFD in it is scanned, and only one with lone surrogates is encoded twice. Hash with
 * startHashing(body, source.text), after handing the body to a store that writes it on the
 * hashing thread (writeOnHashingThread), so the write is that thread's first job.
 */
export function encodeStorable(source: PayloadText, byteLength: number): EncodedSource {
  const body = encodeForHashing(source.text, byteLength);
  if (source.asReceived !== true || body.indexOf(REPLACEMENT_CHARACTER) === -1) {
    return { source, body };
  }
  const storable = storablePayloadText(source);
  if (storable === source) return { source, body };
  return {
    source: storable,
    body: encodeForHashing(storable.text, Buffer.byteLength(storable.text)),
  };
}

/** encodeStorable, then startHashing of its bytes: the text stored and its bytes being hashed. */
export function startEncodingStorable(source: PayloadText, byteLength: number): EncodingSource {
  const encoded = encodeStorable(source, byteLength);
  return {
    source: encoded.source,
    encoding: { body: encoded.body, ...startHashing(encoded.body, encoded.source.text) },
  };
}
