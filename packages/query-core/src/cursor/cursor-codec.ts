import { timingSafeEqual } from "node:crypto";
import { isFixedKeyRing, KEY_ID_PATTERN, type KeyRing } from "./key-ring.js";

/** The first byte of every cursor; a new layout gets a new version. */
export const CURSOR_VERSION = 1;

/** The first byte of a cursor that also carries a scan position (a textSearch that resumes). */
export const CURSOR_VERSION_WITH_POSITION = 2;

/** Bytes of HMAC-SHA256 kept in a cursor: 128 bits. */
export const CURSOR_MAC_BYTES = 16;

/** What a cursor binds: the artifact, the caller's scope, the query view and the next offset. */
export interface CursorClaims {
  artifactId: string;
  scopeHash: string;
  viewHash: string;
  offset: number;
  /**
   * Where a scan resumes (textSearch: UTF-16 code units of the searched strings before it, so it
   * may fall inside one string); absent for an ordinary page. Bound by the MAC like the offset.
   */
  position?: number;
}

/** What a cursor is checked against: the request it came back with. */
export type CursorExpectation = Omit<CursorClaims, "offset" | "position">;

/**
 * The outcome of decodeCursor. `past_end` is not among the reasons: only the caller knows the
 * total, so it compares the offset itself.
 */
export type CursorDecodeResult =
  | { ok: true; offset: number; position?: number }
  | { ok: false; reason: "malformed" | "unknown_key" | "mismatch" };

const MAC_DOMAIN = "bounded-mcp/cursor";
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_CURSOR_CHARS = 64;
const MAX_VARINT_BYTES = 8;

/** What decodeCursor returns for a cursor this process signed, and the claims it was signed for. */
interface IssuedCursor {
  /** expectationKey of the claims the cursor was signed for. */
  readonly claims: string;
  readonly offset: number;
  readonly position: number | undefined;
}

/**
 * Cursors this process signed, per ring object: the exact cursor string -> the claims it was
 * signed for and what it decodes to. A cursor found here and sent back for the same claims is
 * verified without parsing it or computing its HMAC again: recomputing would give the MAC it
 * holds, since this ring made it over exactly these claims. Anything else (another string, even
 * one character apart; other claims; another ring object, e.g. one a key left; a ring not built
 * by createKeyRing, whose keys might change) is parsed and verified as before, so it is rejected
 * exactly as before. Bounded: the last ISSUED_LIMIT cursors.
 */
const issuedCursors = new WeakMap<KeyRing, Map<string, IssuedCursor>>();
const ISSUED_LIMIT = 1_024;

/** An unambiguous key of the claims a cursor is checked against (lengths before each string). */
function expectationKey(claims: CursorExpectation): string {
  return `${claims.artifactId.length}:${claims.artifactId}${claims.scopeHash.length}:${claims.scopeHash}${claims.viewHash}`;
}

function rememberIssued(ring: KeyRing, cursor: string, claims: CursorClaims): void {
  if (!isFixedKeyRing(ring)) return;
  let issued = issuedCursors.get(ring);
  if (issued === undefined) {
    issued = new Map();
    issuedCursors.set(ring, issued);
  }
  issued.delete(cursor);
  issued.set(cursor, {
    claims: expectationKey(claims),
    offset: claims.offset,
    position: claims.position,
  });
  if (issued.size > ISSUED_LIMIT) issued.delete(issued.keys().next().value as string);
}

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`a cursor ${name} is a non-negative safe integer, got ${value}`);
  }
}

/**
 * Encodes a cursor (SPEC.md §7): base64url of version, kid, offset (unsigned LEB128), the
 * scan position when there is one (version 2, a second varint) and 128 bits of HMAC-SHA256 by the
 * ring's signing key over kid, artifact id, scope hash, view hash, offset and position. Without a
 * position at most 56 characters (kids are <= 16 characters); with one, offset and position below
 * 2^35 always fit 64. Throws RangeError for a count that is not a non-negative safe integer or a
 * cursor that would exceed 64 characters.
 */
export function encodeCursor(ring: KeyRing, claims: CursorClaims): string {
  checkCount("offset", claims.offset);
  if (claims.position !== undefined) checkCount("position", claims.position);
  const kid = ring.signingKid;
  const mac = truncatedMac(ring, kid, claims);
  if (mac === null) throw new RangeError("the key ring cannot sign with its own signing kid");
  const kidBytes = Buffer.from(kid, "latin1");
  const version = claims.position === undefined ? CURSOR_VERSION : CURSOR_VERSION_WITH_POSITION;
  const cursor = Buffer.concat([
    Uint8Array.of(version, kidBytes.byteLength),
    kidBytes,
    encodeVarint(claims.offset),
    ...(claims.position === undefined ? [] : [encodeVarint(claims.position)]),
    mac,
  ]).toString("base64url");
  if (cursor.length > MAX_CURSOR_CHARS) {
    throw new RangeError(
      `the cursor would be ${cursor.length} characters, over ${MAX_CURSOR_CHARS}`,
    );
  }
  rememberIssued(ring, cursor, claims);
  return cursor;
}

/**
 * Decodes and verifies a cursor against the request it came back with. `malformed`: not the
 * canonical encoding of a well-formed cursor (every extra, missing or changed character that
 * survives decoding is caught by re-encoding); `unknown_key`: its kid is not in the ring;
 * `mismatch`: the MAC (compared in constant time) does not match, i.e. forged or issued for
 * another artifact, scope or view. A cursor this process signed with this ring object for the
 * same claims (one of the last 1,024 it signed, the exact string) is answered from that record
 * instead of being parsed and MACed again; every other cursor gets the same answer as before.
 */
export function decodeCursor(
  ring: KeyRing,
  cursor: string,
  expected: CursorExpectation,
): CursorDecodeResult {
  const issued = issuedCursors.get(ring)?.get(cursor);
  if (issued !== undefined && issued.claims === expectationKey(expected)) {
    return issued.position === undefined
      ? { ok: true, offset: issued.offset }
      : { ok: true, offset: issued.offset, position: issued.position };
  }
  const parsed = parseCursor(cursor);
  if (parsed === null) return { ok: false, reason: "malformed" };
  const claims: CursorClaims = { ...expected, offset: parsed.offset };
  if (parsed.position !== undefined) claims.position = parsed.position;
  const mac = truncatedMac(ring, parsed.kid, claims);
  if (mac === null) return { ok: false, reason: "unknown_key" };
  if (!timingSafeEqual(mac, parsed.mac)) return { ok: false, reason: "mismatch" };
  return parsed.position === undefined
    ? { ok: true, offset: parsed.offset }
    : { ok: true, offset: parsed.offset, position: parsed.position };
}

interface ParsedCursor {
  kid: string;
  offset: number;
  position?: number;
  mac: Buffer;
}

function parseCursor(cursor: string): ParsedCursor | null {
  if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_CHARS || !BASE64URL.test(cursor)) {
    return null;
  }
  const bytes = Buffer.from(cursor, "base64url");
  if (bytes.toString("base64url") !== cursor) return null;
  const version = bytes[0];
  if (version !== CURSOR_VERSION && version !== CURSOR_VERSION_WITH_POSITION) return null;
  const kidLength = bytes[1] ?? 0;
  const kid = bytes.subarray(2, 2 + kidLength).toString("latin1");
  if (kid.length !== kidLength || !KEY_ID_PATTERN.test(kid)) return null;
  const offset = decodeVarint(bytes, 2 + kidLength);
  if (offset === null) return null;
  const position =
    version === CURSOR_VERSION_WITH_POSITION ? decodeVarint(bytes, offset.end) : undefined;
  if (position === null) return null;
  const mac = bytes.subarray(position === undefined ? offset.end : position.end);
  if (mac.byteLength !== CURSOR_MAC_BYTES) return null;
  const parsed: ParsedCursor = { kid, offset: offset.value, mac };
  if (position !== undefined) parsed.position = position.value;
  return parsed;
}

function truncatedMac(ring: KeyRing, kid: string, claims: CursorClaims): Buffer | null {
  const full = ring.mac(kid, frameClaims(kid, claims));
  return full === null ? null : full.subarray(0, CURSOR_MAC_BYTES);
}

/**
 * Length-prefixed framing (4-byte big-endian length, then UTF-8), so no two different claim
 * tuples share a MAC input however their strings are chosen.
 */
function frameClaims(kid: string, claims: CursorClaims): Buffer {
  const fields = [
    MAC_DOMAIN,
    String(claims.position === undefined ? CURSOR_VERSION : CURSOR_VERSION_WITH_POSITION),
    kid,
    claims.artifactId,
    claims.scopeHash,
    claims.viewHash,
    String(claims.offset),
  ];
  if (claims.position !== undefined) fields.push(String(claims.position));
  let size = 0;
  for (const field of fields) size += 4 + Buffer.byteLength(field, "utf8");
  const framed = Buffer.allocUnsafe(size);
  let at = 0;
  for (const field of fields) {
    const length = framed.write(field, at + 4, "utf8");
    framed.writeUInt32BE(length, at);
    at += 4 + length;
  }
  return framed;
}

function encodeVarint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** Reads a minimal (canonical) unsigned LEB128 value; null for a non-minimal or overlong one. */
function decodeVarint(bytes: Buffer, start: number): { value: number; end: number } | null {
  let value = 0;
  let scale = 1;
  for (let index = start; index < bytes.byteLength && index - start < MAX_VARINT_BYTES; index++) {
    const byte = bytes[index]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) {
      if (byte === 0 && index > start) return null;
      return Number.isSafeInteger(value) ? { value, end: index + 1 } : null;
    }
    scale *= 0x80;
  }
  return null;
}
