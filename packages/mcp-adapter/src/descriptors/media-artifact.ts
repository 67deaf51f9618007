import type { KeyRing } from "@bounded-mcp/query-core";
import type { ArtifactMeta } from "@bounded-mcp/stores";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { MediaBlock } from "../bounding/media.js";

/** Bytes of MAC kept in an id, as for every artifact id (SPEC.md §7). */
const ID_MAC_BYTES = 18;

/**
 * The artifact id of a stored media block (SPEC.md §8): a keyed MAC like every artifact id, but
 * over its own domain, so a media artifact is recognised from its id, its scope and its sha256
 * alone. Nobody without the keys can mint one, so no JSON artifact can ever be read raw through
 * the media path (JSON artifacts have no raw reader).
 */
export function deriveMediaArtifactId(keyRing: KeyRing, scopeHash: string, sha256: string): string {
  const mac = keyRing.mac(keyRing.signingKid, `bounded-mcp/media-id\0${scopeHash}\0${sha256}`);
  if (mac === null) throw new Error("the key ring has no signing key");
  return mac.subarray(0, ID_MAC_BYTES).toString("base64url");
}

/** Whether a stored artifact was stored as a media block for this scope (see deriveMediaArtifactId). */
export function isMediaArtifact(keyRing: KeyRing, meta: ArtifactMeta): boolean {
  return deriveMediaArtifactId(keyRing, meta.scopeHash, meta.sha256) === meta.id;
}

/** How many bytes a base64 text decodes to, without decoding it. */
export function decodedBytes(base64: string): number {
  return Buffer.byteLength(base64, "base64");
}

/**
 * The resource_link that replaces a media block over the media budget: it names what the block
 * was (mimeType, decoded `size`) and how to get it back (resources/read of `uri` returns the
 * block's data as a blob, byte for byte).
 */
export function mediaResourceLink(
  uri: string,
  id: string,
  block: MediaBlock,
  mediaBytes: number,
): CallToolResult["content"][number] {
  const size = decodedBytes(block.data);
  return {
    type: "resource_link",
    uri,
    name: `${block.type}-${id}`,
    title: `Stored ${block.type} (over the media budget)`,
    description: `A ${block.mimeType} ${block.type} of ${size} bytes (${block.data.length} base64 characters), over this server's media budget of ${mediaBytes} base64 characters per result; resources/read of this URI returns it as a blob.`,
    mimeType: block.mimeType,
    size,
  };
}

/**
 * The resources/read answer for a stored media block: its data and mimeType exactly as the
 * upstream sent them, as one blob. `document` is the stored block as parsed; undefined when it is
 * not a media block (then the artifact is not served raw).
 */
export function readMediaContents(uri: string, document: unknown): ReadResourceResult | undefined {
  const block = document as Partial<MediaBlock> | null;
  if (typeof block?.data !== "string" || typeof block.mimeType !== "string") return undefined;
  return { contents: [{ uri, mimeType: block.mimeType, blob: block.data }] };
}
