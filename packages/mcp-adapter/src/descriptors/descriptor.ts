import { CONTRACT_VERSION, type Descriptor, QUERY_TOOL_NAME } from "@bounded-mcp/contract";
import type { ArtifactMeta } from "@bounded-mcp/stores";

/** Largest descriptor, in bytes (SPEC.md §1). */
export const MAX_DESCRIPTOR_BYTES = 8192;

/**
 * The descriptor of an artifact (SPEC.md §8): its reference and how to query it, never
 * its payload (`rawReadable: false`). At most 8192 bytes: metadata is bounded by the contract
 * (six primary paths of at most 500 characters each), and paths are dropped from the end if a
 * pathological set would still not fit.
 */
export function createDescriptor(meta: ArtifactMeta, uri: string | undefined): Descriptor {
  const build = (primaryPaths: string[]): Descriptor => ({
    descriptorVersion: 1,
    contractVersion: CONTRACT_VERSION,
    id: meta.id,
    ...(uri === undefined ? {} : { uri }),
    mediaType: meta.mediaType,
    byteLength: meta.byteLength,
    sha256: meta.sha256,
    expiresAt: new Date(meta.expiresAt).toISOString(),
    queryTool: QUERY_TOOL_NAME,
    responseRoot: meta.responseRoot,
    primaryPaths,
    sourceTruncated: meta.sourceTruncated,
    rawReadable: false,
    guidance: `This is a stored tool result's descriptor, not its content. Read values with ${QUERY_TOOL_NAME}: start with {"artifactId": "${meta.id}", "describe": true}, then select with responsePath, fields, filters or textSearch, and page with the returned cursor.`,
  });
  let paths = meta.primaryPaths.slice(0, 6);
  let descriptor = build(paths);
  while (paths.length > 0 && Buffer.byteLength(JSON.stringify(descriptor)) > MAX_DESCRIPTOR_BYTES) {
    paths = paths.slice(0, -1);
    descriptor = build(paths);
  }
  return descriptor;
}
