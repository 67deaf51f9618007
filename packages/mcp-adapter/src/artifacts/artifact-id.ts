import type { KeyRing } from "@bounded-mcp/query-core";

/** Bytes of MAC kept in an artifact id: 144 bits, 24 base64url characters. */
const ID_MAC_BYTES = 18;

/**
 * The artifact id of a payload for a caller (SPEC.md §7): a keyed MAC (the ring's signing
 * key) over the scope hash and the payload's sha256, as 24 base64url characters. The same payload
 * for the same caller gets the same id (a repeated call reuses its artifact); without the keys an
 * id can neither be guessed nor linked to its content. Matches ARTIFACT_ID_PATTERN.
 */
export function deriveArtifactId(keyRing: KeyRing, scopeHash: string, sha256: string): string {
  const mac = keyRing.mac(keyRing.signingKid, `bounded-mcp/artifact-id\0${scopeHash}\0${sha256}`);
  if (mac === null) throw new Error("the key ring has no signing key");
  return mac.subarray(0, ID_MAC_BYTES).toString("base64url");
}
