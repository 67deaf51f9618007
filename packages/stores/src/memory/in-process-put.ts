import { checkPut } from "../shared/meta.js";
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
  return checkPut(store, meta, body, capBytes, options?.sha256Computed !== true);
}
