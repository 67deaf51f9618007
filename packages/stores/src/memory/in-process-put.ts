import { assertValidArtifactId } from "../artifact-id.js";
import { assertFitsCap, checkPut, parseArtifactMeta } from "../shared/meta.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta, PutOptions } from "../types.js";

/**
 * The checks of `checkPut`, without re-hashing the body when the caller computed meta.sha256
 * from it in this process (see PutOptions). Returns the private copy of the metadata.
 */
export function checkInProcessPut(
  store: string,
  meta: ArtifactMeta,
  body: Uint8Array,
  capBytes: number,
  options: PutOptions | undefined,
): ArtifactMeta {
  if (options?.sha256Computed !== true) return checkPut(store, meta, body, capBytes);
  assertValidArtifactId(meta.id, store, "put");
  assertFitsCap(store, body.byteLength, capBytes);
  const parsed = parseArtifactMeta(meta);
  if (parsed !== null && parsed.byteLength === body.byteLength) return parsed;
  throw new StoreError({
    code: "INVALID_META",
    store,
    operation: "put",
    message: `[stores:${store}] put failed: ${parsed === null ? "the metadata is not a well-formed ArtifactMeta" : `meta.byteLength is ${parsed.byteLength} but the body has ${body.byteLength} bytes`}`,
  });
}
