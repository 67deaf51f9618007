import { createHash } from "node:crypto";
import { ARTIFACT_MEDIA_TYPES } from "@bounded-mcp/contract";
import { assertValidArtifactId, isValidArtifactId } from "../artifact-id.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta } from "../types.js";
import { assertFitsShare } from "./scope-shares.js";

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Lowercase hex sha256 of `body`. */
export function sha256Hex(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

/** An artifact is expired from its `expiresAt` on: served while `now < expiresAt`. */
export function isExpired(meta: Pick<ArtifactMeta, "expiresAt">, now: number): boolean {
  return now >= meta.expiresAt;
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Reads an ArtifactMeta out of untrusted data (a file header, object metadata, a caller's
 * argument): a fresh object with the members in a fixed order, or null when any member is missing
 * or of the wrong type (a `bodyEncoding` this version cannot read, an `exactCandidates` that is not
 * a boolean included). Unknown members are dropped.
 */
export function parseArtifactMeta(value: unknown): ArtifactMeta | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  const { id, scopeHash, mediaType, byteLength, sha256, createdAt, expiresAt } = record;
  const { responseRoot, primaryPaths, sourceTruncated, contractVersion, bodyEncoding } = record;
  const { exactCandidates } = record;
  if (!isValidArtifactId(id)) return null;
  if (typeof scopeHash !== "string") return null;
  if (!(ARTIFACT_MEDIA_TYPES as readonly unknown[]).includes(mediaType)) return null;
  if (!isNonNegativeInteger(byteLength)) return null;
  if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return null;
  if (!isNonNegativeInteger(createdAt) || !isNonNegativeInteger(expiresAt)) return null;
  if (typeof responseRoot !== "string") return null;
  if (!Array.isArray(primaryPaths) || !primaryPaths.every((path) => typeof path === "string")) {
    return null;
  }
  if (typeof sourceTruncated !== "boolean" || contractVersion !== 3) return null;
  if (bodyEncoding !== undefined && bodyEncoding !== "json-string") return null;
  if (exactCandidates !== undefined && typeof exactCandidates !== "boolean") return null;
  return {
    id,
    scopeHash,
    mediaType: mediaType as ArtifactMeta["mediaType"],
    byteLength,
    sha256,
    createdAt,
    expiresAt,
    responseRoot,
    primaryPaths: [...primaryPaths] as string[],
    sourceTruncated,
    contractVersion: 3,
    ...(bodyEncoding === undefined ? {} : { bodyEncoding }),
    ...(exactCandidates === undefined ? {} : { exactCandidates }),
  };
}

/**
 * Reads metadata stored as UTF-8 JSON (a file header, a framed object's header): null unless it
 * parses to a well-formed ArtifactMeta of `id`.
 */
export function parseArtifactMetaJson(bytes: Uint8Array, id: string): ArtifactMeta | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"),
    );
  } catch {
    return null;
  }
  const meta = parseArtifactMeta(parsed);
  return meta !== null && meta.id === id ? meta : null;
}

/** Throws StoreError QUOTA_EXCEEDED when one body alone is larger than the store's byte cap. */
export function assertFitsCap(store: string, bodyBytes: number, capBytes: number): void {
  if (bodyBytes <= capBytes) return;
  throw new StoreError({
    code: "QUOTA_EXCEEDED",
    store,
    operation: "put",
    limit: capBytes,
    limitOf: "store",
    message: `[stores:${store}] put failed: ${bodyBytes} bytes exceed the cap of ${capBytes}`,
  });
}

/**
 * Checks what `put` was given: well-formed metadata whose byteLength and sha256 describe `body`.
 * Returns a private copy of the metadata; throws StoreError INVALID_META otherwise, so metadata
 * and body can never disagree inside a store. `verifySha256: false` skips only the re-hash, for a
 * caller that computed meta.sha256 from this very body in this process.
 */
export function checkMetaForBody(
  meta: ArtifactMeta,
  body: Uint8Array,
  store: string,
  verifySha256 = true,
): ArtifactMeta {
  const parsed = checkMetaLength(meta, body.byteLength, store);
  if (verifySha256 && parsed.sha256 !== sha256Hex(body)) {
    throw invalidPutMeta(store, "meta.sha256 is not the sha256 of the body");
  }
  return parsed;
}

/** put's INVALID_META failure of `store`, saying why. */
export function invalidPutMeta(store: string, reason: string): StoreError {
  return new StoreError({
    code: "INVALID_META",
    store,
    operation: "put",
    message: `[stores:${store}] put failed: ${reason}`,
  });
}

/** checkMetaForBody's checks but the sha256, against a body's length alone (a staged body). */
export function checkMetaLength(
  meta: ArtifactMeta,
  byteLength: number,
  store: string,
): ArtifactMeta {
  const parsed = parseArtifactMeta(meta);
  if (parsed === null)
    throw invalidPutMeta(store, "the metadata is not a well-formed ArtifactMeta");
  if (parsed.byteLength !== byteLength) {
    throw invalidPutMeta(
      store,
      `meta.byteLength is ${parsed.byteLength} but the body has ${byteLength} bytes`,
    );
  }
  return parsed;
}

/** A copy the caller may change without touching the stored metadata. */
export function copyMeta(meta: ArtifactMeta): ArtifactMeta {
  return { ...meta, primaryPaths: [...meta.primaryPaths] };
}

/**
 * The checks every put makes before touching its backend, cheapest first: the id, the byte cap
 * and one scope's share of it (so an oversized body is refused without hashing it), then the metadata against the body.
 * Returns the private copy of the metadata to store.
 */
export function checkPut(
  store: string,
  meta: ArtifactMeta,
  body: Uint8Array,
  capBytes = Number.POSITIVE_INFINITY,
  verifySha256 = true,
  shareBytes = capBytes,
): ArtifactMeta {
  const parsed = checkPutLength(store, meta, body.byteLength, capBytes, shareBytes);
  if (verifySha256 && parsed.sha256 !== sha256Hex(body)) {
    throw invalidPutMeta(store, "meta.sha256 is not the sha256 of the body");
  }
  return parsed;
}

/**
 * checkPut's checks but the sha256, against a body's length alone: for a staged body the store
 * no longer holds (its sha256, when verified, is read from where it was written).
 */
export function checkPutLength(
  store: string,
  meta: ArtifactMeta,
  byteLength: number,
  capBytes = Number.POSITIVE_INFINITY,
  shareBytes = capBytes,
): ArtifactMeta {
  assertValidArtifactId(meta.id, store, "put");
  assertFitsCap(store, byteLength, capBytes);
  if (shareBytes < capBytes) assertFitsShare(store, byteLength, shareBytes);
  return checkMetaLength(meta, byteLength, store);
}
