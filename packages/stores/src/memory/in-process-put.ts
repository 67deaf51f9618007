import { assertValidArtifactId } from "../artifact-id.js";
import { assertFitsCap, checkPut, parseArtifactMeta } from "../shared/meta.js";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta, ArtifactStore } from "../types.js";

/**
 * What an in-process caller (the mcp-adapter's bounding engine) may tell the memory and fs
 * stores as a third `put` argument; other stores ignore it and `ArtifactStore` does not declare
 * it, so a caller passes it only where it knows the store. `sha256Computed`: meta.sha256 was
 * computed by the caller from these very bytes in this process, so put checks the id, the cap and
 * the byte length but does not hash the body again (a persisted store still checks length and
 * sha256 of what it reads back). `handOver`: the caller never touches the body again, so the
 * memory store keeps it without a defensive copy.
 */
export interface InProcessPutOptions {
  sha256Computed?: boolean;
  handOver?: boolean;
}

/**
 * The checks of `checkPut`, without re-hashing the body when the caller computed meta.sha256
 * from it in this process (see InProcessPutOptions). Returns the private copy of the metadata.
 */
export function checkInProcessPut(
  store: string,
  meta: ArtifactMeta,
  body: Uint8Array,
  capBytes: number,
  options: InProcessPutOptions | undefined,
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

/**
 * Calls `store.put` with InProcessPutOptions as its third argument, which ArtifactStore does not
 * declare: the memory and fs stores apply them, any other store ignores the extra argument.
 */
export function putInProcess(
  store: ArtifactStore,
  meta: ArtifactMeta,
  body: Uint8Array,
  options: InProcessPutOptions,
): Promise<void> {
  const put = store.put as (
    meta: ArtifactMeta,
    body: Uint8Array,
    options: InProcessPutOptions,
  ) => Promise<void>;
  return put.call(store, meta, body, options);
}
