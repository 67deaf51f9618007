import { createHash, hash } from "node:crypto";
import { BoundedMcpError } from "@bounded-mcp/contract";

/** A key id: 1..16 url-safe characters, so that it fits inside a 64-character cursor. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;

/** The shortest secret a key ring accepts, in bytes (HMAC-SHA256 gains nothing beyond 64). */
export const MIN_SECRET_BYTES = 32;

/**
 * A key ring that could not be built (an empty list, a short or badly written secret, a bad or
 * duplicate kid). Local configuration failure, never sent over the wire; the message never
 * contains a secret. Recognise it with `KeyRingError.isInstance` (see the contract's
 * BoundedMcpError), which works across copies of this package.
 */
export class KeyRingError extends BoundedMcpError<"INVALID_KEY_RING"> {
  static override readonly kind = "@bounded-mcp/query-core.KeyRingError";

  constructor(message: string, options?: { cause?: unknown }) {
    super("INVALID_KEY_RING", message, options);
  }
}

/**
 * The keys shared by every replica (SPEC.md §7): the first key signs, all keys verify, so a
 * key can be rotated in by listing it first and retired once its cursors and ids have expired.
 * Secrets never leave the ring; callers only get MACs.
 */
export interface KeyRing {
  /** The kid of the key that signs new cursors and ids. */
  readonly signingKid: string;
  /** Every kid of the ring, signing kid first. */
  readonly kids: readonly string[];
  /** The full HMAC-SHA256 of data under the key `kid`, or null when the ring has no such key. */
  mac(kid: string, data: string | Uint8Array): Buffer | null;
}

/** One key of a ring: a secret of at least 32 bytes and an optional kid. */
export interface KeyRingEntry {
  /** 1..16 url-safe characters; defaults to a short hash of the secret. */
  kid?: string;
  secret: Uint8Array;
}

/** The rings createKeyRing built (isFixedKeyRing), with their HMAC keys by kid. */
const fixedRings = new WeakMap<KeyRing, ReadonlyMap<string, HmacKey>>();

/** SHA-256's block: HMAC pads the key to it (RFC 2104). */
const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;

/**
 * One key ready for HMAC-SHA256 (RFC 2104): the key XOR the inner pad and XOR the outer pad,
 * so a MAC is two one-shot SHA-256 calls, without an Hmac object or a KeyObject per MAC.
 */
interface HmacKey {
  readonly inner: Buffer;
  readonly outer: Buffer;
}

function hmacKeyOf(secret: Uint8Array): HmacKey {
  const block = Buffer.alloc(BLOCK_BYTES);
  if (secret.byteLength > BLOCK_BYTES) hash("sha256", secret, "buffer").copy(block);
  else block.set(secret);
  const inner = Buffer.allocUnsafe(BLOCK_BYTES);
  const outer = Buffer.allocUnsafe(BLOCK_BYTES);
  for (let index = 0; index < BLOCK_BYTES; index += 1) {
    inner[index] = (block[index] as number) ^ 0x36;
    outer[index] = (block[index] as number) ^ 0x5c;
  }
  block.fill(0);
  return { inner, outer };
}

/** HMAC-SHA256 of `parts` (concatenated) under `key`: sha256(outer ++ sha256(inner ++ parts)). */
function hmacOf(key: HmacKey, parts: readonly Uint8Array[]): Buffer {
  let size = BLOCK_BYTES;
  for (const part of parts) size += part.byteLength;
  // TypedArray set, not Buffer copy: copy is JavaScript whose optimized code checks the
  // receiver's hidden class, and a digest made by hash() has one that a full collection drops
  // once no digest is alive, so each paging after one optimized copy again.
  const message = Buffer.allocUnsafe(size);
  message.set(key.inner, 0);
  let at = BLOCK_BYTES;
  for (const part of parts) {
    message.set(part, at);
    at += part.byteLength;
  }
  const outer = Buffer.allocUnsafe(BLOCK_BYTES + DIGEST_BYTES);
  outer.set(key.outer, 0);
  outer.set(hash("sha256", message, "buffer"), BLOCK_BYTES);
  return hash("sha256", outer, "buffer");
}

/**
 * Builds a key ring from secrets. The first key signs, all verify. Throws KeyRingError for an
 * empty list, a secret shorter than 32 bytes, a kid outside KEY_ID_PATTERN or a duplicate kid.
 */
export function createKeyRing(keys: readonly KeyRingEntry[]): KeyRing {
  if (keys.length === 0) throw new KeyRingError("a key ring needs at least one key");
  const byKid = new Map<string, HmacKey>();
  for (const [index, entry] of keys.entries()) {
    if (!(entry.secret instanceof Uint8Array) || entry.secret.byteLength < MIN_SECRET_BYTES) {
      throw new KeyRingError(
        `key ${index + 1}: the secret must be at least ${MIN_SECRET_BYTES} bytes`,
      );
    }
    const kid = entry.kid ?? defaultKeyId(entry.secret);
    if (!KEY_ID_PATTERN.test(kid)) {
      throw new KeyRingError(`key ${index + 1}: a kid is 1..16 characters of [A-Za-z0-9_-]`);
    }
    if (byKid.has(kid)) throw new KeyRingError(`key ${index + 1}: duplicate kid "${kid}"`);
    byKid.set(kid, hmacKeyOf(entry.secret));
  }
  const kids = Object.freeze([...byKid.keys()]);
  const ring: KeyRing = Object.freeze({
    signingKid: kids[0]!,
    kids,
    mac(kid: string, data: string | Uint8Array): Buffer | null {
      const key = byKid.get(kid);
      if (key === undefined) return null;
      return hmacOf(key, [typeof data === "string" ? Buffer.from(data, "utf8") : data]);
    },
  });
  fixedRings.set(ring, byKid);
  return ring;
}

/**
 * The full HMAC-SHA256 under `kid` of `parts` concatenated, what `ring.mac(kid, concatenation)`
 * gives, without concatenating them first when createKeyRing built the ring (the cursor codec
 * signs a framed prefix it keeps per view plus the page's offset). Null for an unknown kid.
 * Internal to query-core.
 */
export function macOfParts(
  ring: KeyRing,
  kid: string,
  parts: readonly Uint8Array[],
): Buffer | null {
  const keys = fixedRings.get(ring);
  if (keys === undefined) return ring.mac(kid, Buffer.concat(parts));
  const key = keys.get(kid);
  return key === undefined ? null : hmacOf(key, parts);
}

/**
 * HMAC-SHA256 under one key of a fixed prefix followed by a short suffix, laid out once: `message`
 * holds the key XOR the inner pad, then the prefix, then room for the suffix (written by the
 * caller at `prefixEnd`); `outer` holds the key XOR the outer pad, then room for the inner
 * digest. A MAC is then two one-shot SHA-256 calls over these arrays, with nothing concatenated
 * or allocated but the digests (the cursor codec signs every page of one view so). Used
 * synchronously: the arrays are written and hashed within one call.
 */
export interface PrefixedMac {
  readonly message: Uint8Array;
  readonly prefixEnd: number;
  readonly outer: Uint8Array;
  /** `message` viewed to each length hashed so far (prefixEnd + suffix length), made once. */
  readonly lengths: (Uint8Array | undefined)[];
}

/**
 * The PrefixedMac of `prefix` under `kid`, with room for a suffix of up to `maxSuffix` bytes;
 * null for a ring createKeyRing did not build (its keys might change) or an unknown kid.
 * Internal to query-core.
 */
export function prefixedMacOf(
  ring: KeyRing,
  kid: string,
  prefix: Uint8Array,
  maxSuffix: number,
): PrefixedMac | null {
  const key = fixedRings.get(ring)?.get(kid);
  if (key === undefined) return null;
  const message = new Uint8Array(BLOCK_BYTES + prefix.byteLength + maxSuffix);
  message.set(key.inner, 0);
  message.set(prefix, BLOCK_BYTES);
  const outer = new Uint8Array(BLOCK_BYTES + DIGEST_BYTES);
  outer.set(key.outer, 0);
  return { message, prefixEnd: BLOCK_BYTES + prefix.byteLength, outer, lengths: [] };
}

/**
 * The full HMAC-SHA256 of the prefix followed by the `suffixLength` bytes the caller wrote at
 * `mac.prefixEnd`: what `ring.mac(kid, prefix ++ suffix)` gives, as a "binary" (latin1) string (character
 * k is byte k). The digests are taken as such strings, not Buffers: a Buffer made by hash()
 * cost about twice the hash of these few blocks (Node 20).
 */
export function finishPrefixedMac(mac: PrefixedMac, suffixLength: number): string {
  let message = mac.lengths[suffixLength];
  if (message === undefined) {
    message = mac.message.subarray(0, mac.prefixEnd + suffixLength);
    mac.lengths[suffixLength] = message;
  }
  const inner = hash("sha256", message, "binary");
  const outer = mac.outer;
  for (let index = 0; index < DIGEST_BYTES; index += 1) {
    outer[BLOCK_BYTES + index] = inner.charCodeAt(index);
  }
  return hash("sha256", outer, "binary");
}

/**
 * Whether createKeyRing built this ring: its keys can never change (the ring is frozen and holds
 * its secrets privately), so a MAC it gave once it gives again. decodeCursor trusts its record of
 * issued cursors only for such a ring; a KeyRing implemented elsewhere might rotate in place.
 */
export function isFixedKeyRing(ring: KeyRing): boolean {
  return fixedRings.has(ring);
}

/** The default kid of a secret: 8 base64url characters of a domain-separated SHA-256. */
function defaultKeyId(secret: Uint8Array): string {
  return createHash("sha256")
    .update("bounded-mcp/kid\0")
    .update(secret)
    .digest()
    .subarray(0, 6)
    .toString("base64url");
}

const HEX_SECRET = /^(?:[0-9a-fA-F]{2}){32,}$/;
const BASE64URL_SECRET = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * Parses BOUNDED_MCP_KEYS: a comma-separated list of `[kid:]secret`, each secret written as hex
 * (64+ characters) or base64url (at least 32 bytes decoded). Whitespace around entries is
 * ignored. Throws KeyRingError (never echoing a secret) for anything else.
 */
export function parseKeyRing(text: string): KeyRing {
  const entries = text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (entries.length === 0) {
    throw new KeyRingError("BOUNDED_MCP_KEYS is empty: expected a comma-separated [kid:]secret");
  }
  return createKeyRing(entries.map((entry, index) => parseKeyEntry(entry, index)));
}

function parseKeyEntry(entry: string, index: number): KeyRingEntry {
  const separator = entry.indexOf(":");
  const kid = separator === -1 ? undefined : entry.slice(0, separator);
  const written = separator === -1 ? entry : entry.slice(separator + 1);
  const secret = decodeSecret(written);
  if (secret === null) {
    throw new KeyRingError(
      `BOUNDED_MCP_KEYS entry ${index + 1}: the secret must be hex (64+ characters) or base64url (at least ${MIN_SECRET_BYTES} bytes)`,
    );
  }
  return kid === undefined ? { secret } : { kid, secret };
}

function decodeSecret(written: string): Uint8Array | null {
  if (HEX_SECRET.test(written)) return Buffer.from(written, "hex");
  if (!BASE64URL_SECRET.test(written)) return null;
  const unpadded = written.replace(/=+$/, "");
  const decoded = Buffer.from(unpadded, "base64url");
  if (decoded.toString("base64url") !== unpadded) return null;
  return decoded.byteLength >= MIN_SECRET_BYTES ? decoded : null;
}
