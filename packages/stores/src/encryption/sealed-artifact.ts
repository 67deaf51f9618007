import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { ArtifactMeta } from "../types.js";
import type { AtRestKeys } from "./at-rest-keys.js";

/** The first bytes of a sealed body: "bounded-mcp sealed, format 1". */
const BODY_MAGIC = Buffer.from("BMX1", "latin1");
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes encrypted per cipher update: the transient copy stays this small whatever the body. */
const CHUNK_BYTES = 1024 * 1024;
/** The prefix of the responseRoot member that carries the sealed metadata. */
export const SEALED_META_PREFIX = "bm-sealed:v1:";
const BODY_AAD = Buffer.from("bounded-mcp/at-rest-body\0v1\0", "latin1");
const META_AAD = "bounded-mcp/at-rest-meta\0v1\0";

/** The kid's slot in a header: its length byte, then 16 bytes (the longest kid, zero-padded). */
const KID_SLOT_BYTES = 1 + 16;

/**
 * The bytes a sealed body adds to its payload, whatever the kid: magic, kid slot, nonce, tag.
 * Fixed, so a backend's sizes and quota stay exact to convert (`sealed - SEALED_OVERHEAD_BYTES`).
 */
export const SEALED_OVERHEAD_BYTES =
  BODY_MAGIC.byteLength + KID_SLOT_BYTES + NONCE_BYTES + TAG_BYTES;

/** Why a sealed artifact could not be opened; every reason reads as "unknown" to callers. */
export type OpenFailure = "not_sealed" | "unknown_key" | "damaged";

/** An opened part, or why it could not be opened. */
export type Opened<T> = { ok: true; value: T } | { ok: false; reason: OpenFailure };

/** `header` (magic, kid, nonce) of a new sealed part under the encrypting key. */
function newHeader(magic: Buffer, kid: string): { header: Buffer; nonce: Buffer } {
  const slot = Buffer.alloc(KID_SLOT_BYTES);
  slot[0] = slot.write(kid, 1, "latin1");
  const nonce = randomBytes(NONCE_BYTES);
  return { header: Buffer.concat([magic, slot, nonce]), nonce };
}

/** Reads magic, kid and nonce; null when `sealed` does not start like a sealed part. */
function readHeader(
  sealed: Uint8Array,
  magic: Buffer,
): { kid: string; nonce: Buffer; headerBytes: number } | null {
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (bytes.byteLength < magic.byteLength + 1) return null;
  if (!bytes.subarray(0, magic.byteLength).equals(magic)) return null;
  const kidLength = bytes[magic.byteLength] as number;
  const headerBytes = magic.byteLength + KID_SLOT_BYTES + NONCE_BYTES;
  if (kidLength === 0 || kidLength >= KID_SLOT_BYTES) return null;
  if (bytes.byteLength < headerBytes + TAG_BYTES) return null;
  const kid = bytes.subarray(magic.byteLength + 1, magic.byteLength + 1 + kidLength);
  const nonce = bytes.subarray(headerBytes - NONCE_BYTES, headerBytes);
  return { kid: kid.toString("latin1"), nonce: Buffer.from(nonce), headerBytes };
}

/** Runs `update` over `input` in chunks into one preallocated buffer from `offset` on. */
function transformInto(
  update: (chunk: Uint8Array) => Buffer,
  input: Uint8Array,
  output: Buffer,
  offset: number,
): number {
  let written = offset;
  for (let start = 0; start < input.byteLength; start += CHUNK_BYTES) {
    const out = update(input.subarray(start, Math.min(start + CHUNK_BYTES, input.byteLength)));
    output.set(out, written);
    written += out.byteLength;
  }
  return written;
}

/**
 * A payload sealed with AES-256-GCM under the encrypting key: magic, kid, a random 96-bit nonce,
 * the ciphertext and the tag, in one buffer of exactly the payload plus SEALED_OVERHEAD_BYTES.
 * The header is authenticated too, so a changed kid or nonce fails to open.
 */
export function sealBody(keys: AtRestKeys, body: Uint8Array): Buffer {
  const kid = keys.encryptingKid;
  const { header, nonce } = newHeader(BODY_MAGIC, kid);
  const cipher = createCipheriv("aes-256-gcm", keys.key(kid)!, nonce);
  cipher.setAAD(Buffer.concat([BODY_AAD, header]));
  const sealed = Buffer.allocUnsafeSlow(header.byteLength + body.byteLength + TAG_BYTES);
  header.copy(sealed, 0);
  let written = transformInto((chunk) => cipher.update(chunk), body, sealed, header.byteLength);
  written += cipher.final().copy(sealed, written);
  cipher.getAuthTag().copy(sealed, written);
  return sealed;
}

/**
 * The payload of a sealed body, or why not: `not_sealed` (no sealed header), `unknown_key` (its
 * kid is not in `keys`), `damaged` (the tag does not verify: a changed byte, a wrong key under
 * the same kid). Plaintext is returned only after the tag verified.
 */
export function openBody(keys: AtRestKeys, sealed: Uint8Array): Opened<Buffer> {
  const header = readHeader(sealed, BODY_MAGIC);
  if (header === null) return { ok: false, reason: "not_sealed" };
  const key = keys.key(header.kid);
  if (key === undefined) return { ok: false, reason: "unknown_key" };
  const tagStart = sealed.byteLength - TAG_BYTES;
  const decipher = createDecipheriv("aes-256-gcm", key, header.nonce);
  decipher.setAAD(Buffer.concat([BODY_AAD, Buffer.from(sealed.subarray(0, header.headerBytes))]));
  decipher.setAuthTag(Buffer.from(sealed.subarray(tagStart)));
  const body = Buffer.allocUnsafeSlow(tagStart - header.headerBytes);
  try {
    const written = transformInto(
      (chunk) => decipher.update(chunk),
      sealed.subarray(header.headerBytes, tagStart),
      body,
      0,
    );
    decipher.final().copy(body, written);
  } catch {
    return { ok: false, reason: "damaged" };
  }
  return { ok: true, value: body };
}

/** The members of the metadata that are sealed: what describes the payload or comes from it. */
interface SealedMembers {
  mediaType: ArtifactMeta["mediaType"];
  byteLength: number;
  sha256: string;
  responseRoot: string;
  primaryPaths: string[];
  sourceTruncated: boolean;
  /** Absent in metadata sealed by a version before it, and for most artifacts. */
  bodyEncoding?: ArtifactMeta["bodyEncoding"];
  /** Absent in metadata sealed by a version before it, or when the bounder did not test. */
  exactCandidates?: boolean;
}

/** What the clear metadata binds a sealed metadata to: every member a store keeps in clear. */
function metaAad(clear: ArtifactMeta, kid: string): Buffer {
  const { id, scopeHash, mediaType, createdAt, expiresAt, byteLength, sha256 } = clear;
  const bound = [id, scopeHash, mediaType, createdAt, expiresAt, byteLength, sha256, kid];
  return Buffer.from(META_AAD + JSON.stringify(bound), "utf8");
}

const META_MAGIC = Buffer.from("BMM1", "latin1");

/**
 * The metadata a wrapped store keeps for an artifact whose sealed body is `sealed`: id, scope
 * hash, times and the sealed body's own size and sha256 stay clear (sweep and the scope check
 * need them, and the backend checks the body against them); mediaType, the payload's size and
 * sha256, responseRoot, primaryPaths, sourceTruncated, bodyEncoding and exactCandidates are
 * sealed into `responseRoot` (as
 * `bm-sealed:v1:<base64url>`), bound to every clear member, so a copied, moved or edited object
 * fails to open. primaryPaths is empty and mediaType is application/json in clear (a reader
 * without the wrapper then fails to parse the body rather than showing ciphertext as text).
 */
export function sealMeta(
  keys: AtRestKeys,
  meta: ArtifactMeta,
  sealed: { byteLength: number; sha256: string },
): ArtifactMeta {
  const kid = keys.encryptingKid;
  const clear: ArtifactMeta = {
    id: meta.id,
    scopeHash: meta.scopeHash,
    mediaType: "application/json",
    byteLength: sealed.byteLength,
    sha256: sealed.sha256,
    createdAt: meta.createdAt,
    expiresAt: meta.expiresAt,
    responseRoot: "",
    primaryPaths: [],
    sourceTruncated: false,
    contractVersion: 3,
  };
  const members: SealedMembers = {
    mediaType: meta.mediaType,
    byteLength: meta.byteLength,
    sha256: meta.sha256,
    responseRoot: meta.responseRoot,
    primaryPaths: meta.primaryPaths,
    sourceTruncated: meta.sourceTruncated,
    ...(meta.bodyEncoding === undefined ? {} : { bodyEncoding: meta.bodyEncoding }),
    ...(meta.exactCandidates === undefined ? {} : { exactCandidates: meta.exactCandidates }),
  };
  const { header, nonce } = newHeader(META_MAGIC, kid);
  const cipher = createCipheriv("aes-256-gcm", keys.key(kid)!, nonce);
  cipher.setAAD(metaAad(clear, kid));
  const plain = Buffer.from(JSON.stringify(members), "utf8");
  const parts = [header, cipher.update(plain), cipher.final(), cipher.getAuthTag()];
  clear.responseRoot = SEALED_META_PREFIX + Buffer.concat(parts).toString("base64url");
  return clear;
}

function isSealedMembers(value: unknown): value is SealedMembers {
  if (typeof value !== "object" || value === null) return false;
  const members = value as Record<string, unknown>;
  return (
    typeof members.mediaType === "string" &&
    Number.isSafeInteger(members.byteLength) &&
    typeof members.sha256 === "string" &&
    typeof members.responseRoot === "string" &&
    Array.isArray(members.primaryPaths) &&
    members.primaryPaths.every((path) => typeof path === "string") &&
    typeof members.sourceTruncated === "boolean" &&
    (members.bodyEncoding === undefined || members.bodyEncoding === "json-string") &&
    (members.exactCandidates === undefined || typeof members.exactCandidates === "boolean")
  );
}

/**
 * The metadata as it was put, from what the backend kept (see sealMeta), or why not:
 * `not_sealed` (an artifact written without encryption), `unknown_key`, `damaged` (a failed tag:
 * an edited clear member, a moved object, a changed byte).
 */
export function openMeta(keys: AtRestKeys, clear: ArtifactMeta): Opened<ArtifactMeta> {
  if (!clear.responseRoot.startsWith(SEALED_META_PREFIX))
    return { ok: false, reason: "not_sealed" };
  const sealed = Buffer.from(clear.responseRoot.slice(SEALED_META_PREFIX.length), "base64url");
  const header = readHeader(sealed, META_MAGIC);
  if (header === null) return { ok: false, reason: "damaged" };
  const key = keys.key(header.kid);
  if (key === undefined) return { ok: false, reason: "unknown_key" };
  const tagStart = sealed.byteLength - TAG_BYTES;
  let members: unknown;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, header.nonce);
    decipher.setAAD(metaAad(clear, header.kid));
    decipher.setAuthTag(sealed.subarray(tagStart));
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(header.headerBytes, tagStart)),
      decipher.final(),
    ]);
    members = JSON.parse(plain.toString("utf8"));
  } catch {
    return { ok: false, reason: "damaged" };
  }
  if (!isSealedMembers(members)) return { ok: false, reason: "damaged" };
  // Only sealed members describe the payload: a clear bodyEncoding or exactCandidates (not
  // authenticated, never written by sealMeta) is dropped, not trusted.
  const { bodyEncoding: _clearEncoding, exactCandidates: _clearVerdict, ...authenticated } = clear;
  return {
    ok: true,
    value: {
      ...authenticated,
      mediaType: members.mediaType,
      byteLength: members.byteLength,
      sha256: members.sha256,
      responseRoot: members.responseRoot,
      primaryPaths: [...members.primaryPaths],
      sourceTruncated: members.sourceTruncated,
      ...(members.bodyEncoding === undefined ? {} : { bodyEncoding: members.bodyEncoding }),
      ...(members.exactCandidates === undefined
        ? {}
        : { exactCandidates: members.exactCandidates }),
    },
  };
}
