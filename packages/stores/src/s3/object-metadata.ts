import { parseArtifactMeta, parseArtifactMetaJson } from "../shared/meta.js";
import type { ArtifactMeta } from "../types.js";

/**
 * How an artifact's metadata travels as S3 user metadata (`x-amz-meta-bm-*`). S3 caps user
 * metadata at 2 KiB (keys and values, UTF-8); header values must be ASCII, so free-text members
 * (scopeHash, responseRoot, primaryPaths) are percent-encoded. When the whole metadata would not
 * fit (long primaryPaths), the object is "framed": the full metadata is written as a JSON header
 * in front of the body, `bm-header-bytes` says how long it is, and the user metadata keeps only
 * the small fixed-size members (enough for expiry checks and sweeps).
 */
export const S3_USER_METADATA_LIMIT_BYTES = 2048;
const PREFIX_COUNTED = "x-amz-meta-";

/** What is written with one object. */
export interface EncodedObject {
  metadata: Record<string, string>;
  /** The JSON header in front of the body, or null when everything fits in user metadata. */
  header: Buffer | null;
}

/** What an object's user metadata says, before any header is read. */
export type DecodedMetadata =
  | { layout: "inline"; meta: ArtifactMeta }
  | {
      layout: "framed";
      headerBytes: number;
      byteLength: number;
      sha256: string;
      expiresAt: number;
    };

function fixedMembers(meta: ArtifactMeta): Record<string, string> {
  return {
    "bm-layout-version": "1",
    "bm-media-type": meta.mediaType,
    "bm-byte-length": String(meta.byteLength),
    "bm-sha256": meta.sha256,
    "bm-created-at": String(meta.createdAt),
    "bm-expires-at": String(meta.expiresAt),
    "bm-source-truncated": String(meta.sourceTruncated),
    "bm-contract-version": String(meta.contractVersion),
    ...(meta.bodyEncoding === undefined ? {} : { "bm-body-encoding": meta.bodyEncoding }),
    ...(meta.exactCandidates === undefined
      ? {}
      : { "bm-exact-candidates": String(meta.exactCandidates) }),
  };
}

/** Bytes S3 counts for `metadata` (measured with the `x-amz-meta-` prefix, to stay on the safe side). */
export function userMetadataBytes(metadata: Record<string, string>): number {
  let total = 0;
  for (const [key, value] of Object.entries(metadata)) {
    total += Buffer.byteLength(PREFIX_COUNTED + key) + Buffer.byteLength(value);
  }
  return total;
}

/** The user metadata (and, when it would not fit, the header) for `meta`. */
export function encodeObjectMetadata(meta: ArtifactMeta): EncodedObject {
  const inline = {
    ...fixedMembers(meta),
    "bm-header-bytes": "0",
    "bm-scope-hash": encodeURIComponent(meta.scopeHash),
    "bm-response-root": encodeURIComponent(meta.responseRoot),
    "bm-primary-paths": encodeURIComponent(JSON.stringify(meta.primaryPaths)),
  };
  if (userMetadataBytes(inline) <= S3_USER_METADATA_LIMIT_BYTES)
    return { metadata: inline, header: null };
  const header = Buffer.from(JSON.stringify(meta), "utf8");
  return {
    metadata: { ...fixedMembers(meta), "bm-header-bytes": String(header.byteLength) },
    header,
  };
}

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,16}$/.test(value)) return null;
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) ? parsed : null;
}

function decodeText(value: string | undefined): string | null {
  if (value === undefined) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** "true" and "false" as booleans; absent as undefined; anything else as itself (then refused). */
function booleanMember(value: string | undefined): boolean | string | undefined {
  return value === "true" ? true : value === "false" ? false : value;
}

/** Reads an object's user metadata (keys lowercase, without `x-amz-meta-`); null when it is not ours. */
export function decodeObjectMetadata(
  id: string,
  metadata: Record<string, string> | undefined,
): DecodedMetadata | null {
  if (metadata === undefined || metadata["bm-layout-version"] !== "1") return null;
  const headerBytes = integer(metadata["bm-header-bytes"]);
  const byteLength = integer(metadata["bm-byte-length"]);
  const expiresAt = integer(metadata["bm-expires-at"]);
  const sha256 = metadata["bm-sha256"];
  if (headerBytes === null || byteLength === null || expiresAt === null || sha256 === undefined) {
    return null;
  }
  if (headerBytes > 0) return { layout: "framed", headerBytes, byteLength, sha256, expiresAt };
  const primaryPathsText = decodeText(metadata["bm-primary-paths"]);
  let primaryPaths: unknown = null;
  try {
    primaryPaths = primaryPathsText === null ? null : JSON.parse(primaryPathsText);
  } catch {
    return null;
  }
  const meta = parseArtifactMeta({
    id,
    scopeHash: decodeText(metadata["bm-scope-hash"]),
    mediaType: metadata["bm-media-type"],
    byteLength,
    sha256,
    createdAt: integer(metadata["bm-created-at"]),
    expiresAt,
    responseRoot: decodeText(metadata["bm-response-root"]),
    primaryPaths,
    sourceTruncated:
      metadata["bm-source-truncated"] === "true"
        ? true
        : metadata["bm-source-truncated"] === "false"
          ? false
          : null,
    contractVersion: metadata["bm-contract-version"] === "3" ? 3 : null,
    bodyEncoding: metadata["bm-body-encoding"],
    exactCandidates: booleanMember(metadata["bm-exact-candidates"]),
  });
  return meta === null ? null : { layout: "inline", meta };
}

/**
 * The full metadata of a framed object from its header bytes; null unless the header parses and
 * agrees with the user metadata of the same response.
 */
export function decodeFramedHeader(
  id: string,
  header: Buffer,
  decoded: Extract<DecodedMetadata, { layout: "framed" }>,
): ArtifactMeta | null {
  const meta = parseArtifactMetaJson(header, id);
  if (meta === null) return null;
  const agrees =
    meta.byteLength === decoded.byteLength &&
    meta.sha256 === decoded.sha256 &&
    meta.expiresAt === decoded.expiresAt;
  return agrees ? meta : null;
}
