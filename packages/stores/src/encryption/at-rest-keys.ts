import { createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

/** Bytes of an AES-256-GCM key. */
export const AT_REST_KEY_BYTES = 32;

/** A key id as the key ring writes it: 1..16 url-safe characters (it fits one length byte). */
const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;

/**
 * The keys an encrypted store seals and opens artifacts with: the first encrypts, every one
 * decrypts, so a new key is rotated in by listing it first and an old one retired once its
 * artifacts expired (the same rule as the cursor key ring). Keys never leave it.
 */
export interface AtRestKeys {
  /** The kid of the key that seals new artifacts; written into every sealed artifact. */
  readonly encryptingKid: string;
  /** Every kid, the encrypting one first. */
  readonly kids: readonly string[];
  /** The AES-256-GCM key of `kid`, or undefined when the ring has none (retired, other ring). */
  key(kid: string): KeyObject | undefined;
}

/** One at-rest key: exactly 32 bytes of key material under a kid. */
export interface AtRestKeyEntry {
  kid: string;
  key: Uint8Array;
}

/**
 * Builds AtRestKeys from raw 32-byte keys (tests, or an embedding with its own key management).
 * Throws a TypeError for an empty list, a kid outside 1..16 url-safe characters, a duplicate kid
 * or a key that is not 32 bytes; the message never contains key material.
 */
export function createAtRestKeys(entries: readonly AtRestKeyEntry[]): AtRestKeys {
  if (entries.length === 0) throw new TypeError("at-rest keys: at least one key is needed");
  const byKid = new Map<string, KeyObject>();
  for (const [index, { kid, key }] of entries.entries()) {
    if (!KEY_ID_PATTERN.test(kid)) {
      throw new TypeError(`at-rest key ${index + 1}: a kid is 1..16 characters of [A-Za-z0-9_-]`);
    }
    if (byKid.has(kid)) throw new TypeError(`at-rest key ${index + 1}: duplicate kid "${kid}"`);
    if (!(key instanceof Uint8Array) || key.byteLength !== AT_REST_KEY_BYTES) {
      throw new TypeError(`at-rest key ${index + 1}: a key is exactly ${AT_REST_KEY_BYTES} bytes`);
    }
    byKid.set(kid, createSecretKey(Buffer.from(key)));
  }
  const kids = Object.freeze([...byKid.keys()]);
  return Object.freeze({
    encryptingKid: kids[0] as string,
    kids,
    key: (kid: string) => byKid.get(kid),
  });
}

/**
 * What deriveAtRestKeys needs of a key ring: its kids (signing kid first) and an HMAC-SHA256
 * under each. Structurally the query-core KeyRing (`BOUNDED_MCP_KEYS`, the relay's key file),
 * which never lets its secrets out.
 */
export interface MacKeyRing {
  readonly kids: readonly string[];
  mac(kid: string, data: string | Uint8Array): Uint8Array | null;
}

/** The ring's MAC input for an at-rest key: a label no cursor, id or scope MAC uses. */
const PRK_LABEL = "bounded-mcp/at-rest-prk\0v1";
/** HKDF's info: what the derived key is for, so it is never the key of anything else. */
const HKDF_INFO = "bounded-mcp/artifact-at-rest/aes-256-gcm/v1";

/**
 * One at-rest key per key of the ring, kid for kid (the signing key encrypts, every listed key
 * decrypts), derived rather than reused: PRK = HMAC-SHA256(secret, a label of its own) through
 * the ring's `mac`, then HKDF-SHA256 of the PRK with the kid as salt and an info label naming
 * AES-256-GCM at rest. The ring's secret is never used as an AES key and no cursor or artifact
 * id MAC shares the label, so an encryption key says nothing about a cursor key nor the reverse.
 * Deterministic: every replica with the same ring derives the same keys.
 */
export function deriveAtRestKeys(ring: MacKeyRing): AtRestKeys {
  return createAtRestKeys(
    ring.kids.map((kid) => {
      const prk = ring.mac(kid, PRK_LABEL);
      if (prk === null) throw new TypeError(`at-rest keys: the key ring has no key "${kid}"`);
      const key = new Uint8Array(hkdfSync("sha256", prk, kid, HKDF_INFO, AT_REST_KEY_BYTES));
      return { kid, key };
    }),
  );
}
