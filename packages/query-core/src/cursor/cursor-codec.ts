import { timingSafeEqual } from "node:crypto";
import {
  finishPrefixedMac,
  isFixedKeyRing,
  KEY_ID_PATTERN,
  type KeyRing,
  macOfParts,
  type PrefixedMac,
  prefixedMacOf,
} from "./key-ring.js";

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
  position?: number | undefined;
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

/**
 * The expectation key of the claims last signed or checked: consecutive pages of one view carry
 * the same artifact, scope and view, so the key is compared, not concatenated again.
 */
let lastExpectation: { readonly claims: CursorExpectation; readonly key: string } | null = null;

function expectationOf(claims: CursorExpectation): string {
  const last = lastExpectation;
  if (
    last !== null &&
    last.claims.artifactId === claims.artifactId &&
    last.claims.scopeHash === claims.scopeHash &&
    last.claims.viewHash === claims.viewHash
  ) {
    return last.key;
  }
  const key = expectationKey(claims);
  lastExpectation = {
    claims: {
      artifactId: claims.artifactId,
      scopeHash: claims.scopeHash,
      viewHash: claims.viewHash,
    },
    key,
  };
  return key;
}

function rememberIssued(ring: KeyRing, cursor: string, claims: CursorClaims): void {
  if (!isFixedKeyRing(ring)) return;
  recordIssued(ring, cursor, expectationOf(claims), claims.offset, claims.position);
}

function recordIssued(
  ring: KeyRing,
  cursor: string,
  expectation: string,
  offset: number,
  position: number | undefined,
): void {
  let issued = issuedCursors.get(ring);
  if (issued === undefined) {
    issued = new Map();
    issuedCursors.set(ring, issued);
  }
  issued.delete(cursor);
  issued.set(cursor, { claims: expectation, offset, position });
  if (issued.size > ISSUED_LIMIT) issued.delete(issued.keys().next().value as string);
}

/**
 * What signing the cursors of one view needs, laid out once: the MAC of its framed prefix
 * (domain, version 1, kid, artifact id, scope hash, view hash) with room for the framed offset,
 * and the cursor's bytes up to the offset (version, kid length, kid). Kept for the last
 * SIGNER_LIMIT views signed with each ring (a ring createKeyRing built, cursors without a
 * position), so a page frames, hashes and encodes only its offset; weakly by ring, so a retired
 * ring's key material goes with it.
 */
interface ViewSigner {
  /** The ring it signs with (a WeakMap value may refer to its key: the ring still goes). */
  readonly ring: KeyRing;
  readonly kid: string;
  readonly artifactId: string;
  readonly scopeHash: string;
  readonly viewHash: string;
  /** expectationKey of the claims (what the record of issued cursors keeps). */
  readonly expectation: string;
  readonly mac: PrefixedMac;
  /** Version, kid length, kid; then room for the offset varint and the MAC. */
  readonly bytes: Buffer;
  readonly headerEnd: number;
}

const signersByRing = new WeakMap<KeyRing, ViewSigner[]>();
const SIGNER_LIMIT = 8;
/** The framed offset: a 4-byte length and at most 16 decimal digits (a safe integer). */
const MAX_COUNTS_BYTES = 4 + 16;

/** The signer of the claims' view under `kid`, made when none is kept; null when none applies. */
function signerOf(ring: KeyRing, kid: string, claims: CursorClaims): ViewSigner | null {
  if (!isFixedKeyRing(ring)) return null;
  const signers = signersByRing.get(ring) ?? [];
  for (const signer of signers) {
    if (
      signer.kid === kid &&
      signer.viewHash === claims.viewHash &&
      signer.artifactId === claims.artifactId &&
      signer.scopeHash === claims.scopeHash
    ) {
      return signer;
    }
  }
  const mac = prefixedMacOf(ring, kid, framedPrefix(kid, claims), MAX_COUNTS_BYTES);
  if (mac === null) return null;
  const bytes = Buffer.alloc(2 + kid.length + MAX_VARINT_BYTES + CURSOR_MAC_BYTES);
  bytes[0] = CURSOR_VERSION;
  bytes[1] = kid.length;
  const headerEnd = 2 + bytes.write(kid, 2, "latin1");
  const signer: ViewSigner = {
    ring,
    kid,
    artifactId: claims.artifactId,
    scopeHash: claims.scopeHash,
    viewHash: claims.viewHash,
    expectation: expectationOf(claims),
    mac,
    bytes,
    headerEnd,
  };
  signers.unshift(signer);
  if (signers.length > SIGNER_LIMIT) signers.pop();
  if (signers.length === 1) signersByRing.set(ring, signers);
  return signer;
}

/**
 * encodeCursor of a cursor without a position, by the view's signer: the same bytes (the framed
 * offset written after the kept prefix, the same HMAC, the same layout), nothing framed again.
 */
function encodeWithSigner(signer: ViewSigner, offset: number): string {
  const digits = String(offset);
  const mac = signer.mac;
  const message = mac.message;
  const at = mac.prefixEnd;
  // The framed offset: its length as 4 bytes big-endian (at most 16), then its ASCII digits.
  message[at] = 0;
  message[at + 1] = 0;
  message[at + 2] = 0;
  message[at + 3] = digits.length;
  for (let index = 0; index < digits.length; index += 1) {
    message[at + 4 + index] = digits.charCodeAt(index);
  }
  const full = finishPrefixedMac(mac, 4 + digits.length);
  const bytes = signer.bytes;
  let end = writeVarint(bytes, signer.headerEnd, offset);
  for (let index = 0; index < CURSOR_MAC_BYTES; index += 1) {
    bytes[end + index] = full.charCodeAt(index);
  }
  end += CURSOR_MAC_BYTES;
  const cursor = bytes.toString("base64url", 0, end);
  if (cursor.length > MAX_CURSOR_CHARS) {
    throw new RangeError(
      `the cursor would be ${cursor.length} characters, over ${MAX_CURSOR_CHARS}`,
    );
  }
  recordIssued(signer.ring, cursor, signer.expectation, offset, undefined);
  return cursor;
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
  if (claims.position === undefined) {
    const signer = signerOf(ring, kid, claims);
    if (signer !== null) return encodeWithSigner(signer, claims.offset);
  }
  const mac = truncatedMac(ring, kid, claims);
  if (mac === null) throw new RangeError("the key ring cannot sign with its own signing kid");
  const version = claims.position === undefined ? CURSOR_VERSION : CURSOR_VERSION_WITH_POSITION;
  // One buffer: version, kid length, kid (latin1; a kid is ASCII), the varints, the MAC.
  const bytes = Buffer.allocUnsafe(2 + kid.length + 2 * MAX_VARINT_BYTES + CURSOR_MAC_BYTES);
  bytes[0] = version;
  bytes[1] = kid.length;
  let at = 2 + bytes.write(kid, 2, "latin1");
  at = writeVarint(bytes, at, claims.offset);
  if (claims.position !== undefined) at = writeVarint(bytes, at, claims.position);
  bytes.set(mac, at);
  at += mac.byteLength;
  const cursor = bytes.toString("base64url", 0, at);
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
  if (issued !== undefined && issued.claims === expectationOf(expected)) {
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
  const full = macOfParts(ring, kid, [framedPrefix(kid, claims), framedCounts(claims)]);
  return full === null ? null : full.subarray(0, CURSOR_MAC_BYTES);
}

/** Writes one framed field (4-byte big-endian length, then UTF-8) at `at`; returns the end. */
function writeField(framed: Buffer, at: number, field: string): number {
  const length = framed.write(field, at + 4, "utf8");
  framed.writeUInt32BE(length, at);
  return at + 4 + length;
}

function framedLength(fields: readonly string[]): number {
  let size = 0;
  for (const field of fields) size += 4 + Buffer.byteLength(field, "utf8");
  return size;
}

function frame(fields: readonly string[]): Buffer {
  const framed = Buffer.allocUnsafe(framedLength(fields));
  let at = 0;
  for (const field of fields) at = writeField(framed, at, field);
  return framed;
}

/**
 * The framed fields before the counts, which every page of one view shares, kept for the last
 * PREFIX_LIMIT views (by version, kid and claims), so a page frames only its offset.
 */
const prefixes = new Map<string, Buffer>();
const PREFIX_LIMIT = 256;

/**
 * Length-prefixed framing (4-byte big-endian length, then UTF-8), so no two different claim
 * tuples share a MAC input however their strings are chosen: domain, version, kid, artifact id,
 * scope hash, view hash (this part), then offset and position (framedCounts).
 */
function framedPrefix(kid: string, claims: CursorClaims): Buffer {
  const version = String(
    claims.position === undefined ? CURSOR_VERSION : CURSOR_VERSION_WITH_POSITION,
  );
  const key = `${version}${kid.length}:${kid}${expectationOf(claims)}`;
  const kept = prefixes.get(key);
  if (kept !== undefined) return kept;
  const framed = frame([
    MAC_DOMAIN,
    version,
    kid,
    claims.artifactId,
    claims.scopeHash,
    claims.viewHash,
  ]);
  prefixes.set(key, framed);
  if (prefixes.size > PREFIX_LIMIT) prefixes.delete(prefixes.keys().next().value as string);
  return framed;
}

/** The framed offset, and the position when there is one (the end of the MAC input). */
function framedCounts(claims: CursorClaims): Buffer {
  // Decimal digits are ASCII: one byte a character.
  const offset = String(claims.offset);
  const position = claims.position === undefined ? "" : String(claims.position);
  const size = 4 + offset.length + (claims.position === undefined ? 0 : 4 + position.length);
  const framed = Buffer.allocUnsafe(size);
  framed.writeUInt32BE(offset.length, 0);
  framed.write(offset, 4, "latin1");
  if (claims.position !== undefined) {
    framed.writeUInt32BE(position.length, 4 + offset.length);
    framed.write(position, 8 + offset.length, "latin1");
  }
  return framed;
}

/** Writes `value` as unsigned LEB128 at `at`; returns the end. */
function writeVarint(bytes: Buffer, at: number, value: number): number {
  let rest = value;
  let end = at;
  while (rest >= 0x80) {
    bytes[end] = (rest % 0x80) | 0x80;
    end += 1;
    rest = Math.floor(rest / 0x80);
  }
  bytes[end] = rest;
  return end + 1;
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
