import { describe, expect, it } from "vitest";
import type { ArtifactMeta } from "../types.js";
import {
  decodeFramedHeader,
  decodeObjectMetadata,
  encodeObjectMetadata,
  S3_USER_METADATA_LIMIT_BYTES,
  userMetadataBytes,
} from "./object-metadata.js";

const meta: ArtifactMeta = {
  id: "artifact_0000000000001",
  scopeHash: "scope ü/1",
  mediaType: "text/plain",
  byteLength: 12,
  sha256: "a".repeat(64),
  createdAt: 1_700_000_000_000,
  expiresAt: 1_700_000_600_000,
  responseRoot: "/lines",
  primaryPaths: ["/lines", "/名前"],
  sourceTruncated: true,
  contractVersion: 3,
};

describe("S3 object metadata", () => {
  it("round-trips metadata with non-ASCII text through ASCII-only user metadata", () => {
    const { metadata, header } = encodeObjectMetadata(meta);
    expect(header).toBeNull();
    expect(Object.values(metadata).every((value) => /^[\x20-\x7e]*$/.test(value))).toBe(true);
    expect(decodeObjectMetadata(meta.id, metadata)).toEqual({ layout: "inline", meta });
  });

  it("frames metadata that would pass the 2 KiB limit and keeps the user metadata under it", () => {
    const long = { ...meta, primaryPaths: Array.from({ length: 6 }, () => `/${"x".repeat(400)}`) };
    const { metadata, header } = encodeObjectMetadata(long);
    const decoded = decodeObjectMetadata(long.id, metadata);
    expect({
      fits: userMetadataBytes(metadata) <= S3_USER_METADATA_LIMIT_BYTES,
      decoded,
    }).toEqual({
      fits: true,
      decoded: {
        layout: "framed",
        headerBytes: header?.byteLength,
        byteLength: 12,
        sha256: long.sha256,
        expiresAt: long.expiresAt,
      },
    });
    if (decoded?.layout !== "framed" || header === null)
      throw new Error("expected a framed layout");
    expect(decodeFramedHeader(long.id, header, decoded)).toEqual(long);
    expect(decodeFramedHeader("artifact_0000000000002", header, decoded)).toBeNull();
    expect(decodeFramedHeader(long.id, header, { ...decoded, sha256: "b".repeat(64) })).toBeNull();
  });

  it("round-trips a bodyEncoding marker (inline and framed), leaves it out when absent and refuses one it cannot read", () => {
    const marked: ArtifactMeta = { ...meta, bodyEncoding: "json-string" };
    const framed = { ...marked, primaryPaths: [`/${"x".repeat(2400)}`] };
    const encodedFramed = encodeObjectMetadata(framed);
    const decodedFramed = decodeObjectMetadata(framed.id, encodedFramed.metadata);
    if (decodedFramed?.layout !== "framed" || encodedFramed.header === null) {
      throw new Error("expected a framed layout");
    }
    const { metadata } = encodeObjectMetadata(marked);
    expect({
      inline: decodeObjectMetadata(marked.id, metadata),
      framed: decodeFramedHeader(framed.id, encodedFramed.header, decodedFramed),
      absent: decodeObjectMetadata(meta.id, encodeObjectMetadata(meta).metadata),
      unknown: decodeObjectMetadata(marked.id, { ...metadata, "bm-body-encoding": "base64" }),
    }).toStrictEqual({
      inline: { layout: "inline", meta: marked },
      framed,
      absent: { layout: "inline", meta },
      unknown: null,
    });
  });

  it("round-trips exactCandidates (inline and framed), leaves it out when absent and refuses a value that is not a boolean", () => {
    const results = [true, false].map((exactCandidates) => {
      const marked: ArtifactMeta = { ...meta, exactCandidates };
      const framed = { ...marked, primaryPaths: [`/${"x".repeat(2400)}`] };
      const encodedFramed = encodeObjectMetadata(framed);
      const decodedFramed = decodeObjectMetadata(framed.id, encodedFramed.metadata);
      if (decodedFramed?.layout !== "framed" || encodedFramed.header === null) {
        throw new Error("expected a framed layout");
      }
      const { metadata } = encodeObjectMetadata(marked);
      return {
        header: metadata["bm-exact-candidates"],
        inline: decodeObjectMetadata(marked.id, metadata),
        framed: decodeFramedHeader(framed.id, encodedFramed.header, decodedFramed),
        expected: { inline: { layout: "inline", meta: marked }, framed },
      };
    });
    const { metadata } = encodeObjectMetadata(meta);
    expect({
      results: results.map(({ header, inline, framed }) => ({ header, inline, framed })),
      absent: ["bm-exact-candidates" in metadata, decodeObjectMetadata(meta.id, metadata)],
      unknown: decodeObjectMetadata(meta.id, { ...metadata, "bm-exact-candidates": "maybe" }),
    }).toStrictEqual({
      results: results.map(({ expected }, at) => ({
        header: at === 0 ? "true" : "false",
        ...expected,
      })),
      absent: [false, { layout: "inline", meta }],
      unknown: null,
    });
  });

  it("treats objects it did not write as not its own", () => {
    const { metadata } = encodeObjectMetadata(meta);
    expect([
      decodeObjectMetadata(meta.id, undefined),
      decodeObjectMetadata(meta.id, {}),
      decodeObjectMetadata(meta.id, { ...metadata, "bm-layout-version": "2" }),
      decodeObjectMetadata(meta.id, { ...metadata, "bm-byte-length": "-1" }),
      decodeObjectMetadata(meta.id, { ...metadata, "bm-primary-paths": "%E0%A4%A" }),
      decodeObjectMetadata(meta.id, { ...metadata, "bm-contract-version": "2" }),
    ]).toEqual([null, null, null, null, null, null]);
  });
});
