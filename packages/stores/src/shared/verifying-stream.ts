import { createHash } from "node:crypto";
import { pipeline, type Readable, Transform } from "node:stream";
import { StoreError } from "../store-error.js";
import type { ArtifactMeta } from "../types.js";

/**
 * A pass-through that counts and hashes what flows and fails the stream at its end when the bytes
 * do not match `meta` (byteLength and sha256). The last chunk is held back until the check passed,
 * so a reader never sees the complete bytes of a torn body succeed.
 */
export function createVerifyingStream(
  meta: Pick<ArtifactMeta, "byteLength" | "sha256">,
  onMismatch: () => Error,
): Transform {
  const hash = createHash("sha256");
  let seen = 0;
  let held: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      seen += chunk.byteLength;
      if (seen > meta.byteLength) {
        callback(onMismatch());
        return;
      }
      const release = held;
      held = chunk;
      callback(null, release ?? undefined);
    },
    flush(callback) {
      if (seen !== meta.byteLength || hash.digest("hex") !== meta.sha256) {
        callback(onMismatch());
        return;
      }
      callback(null, held ?? undefined);
    },
  });
}

/** What `createVerifiedBody` needs besides the source. */
export interface VerifiedBodyOptions {
  meta: Pick<ArtifactMeta, "byteLength" | "sha256">;
  /** The backend's name and the operation its errors are named after. */
  store: string;
  operation: string;
  /** Called once when the bytes do not match (the store logs the damaged artifact). */
  onMismatch: () => void;
}

/**
 * The body stream a store hands out from getStream: `source` piped through a verifying stream.
 * Every failure reaches the reader as a StoreError STORE_UNAVAILABLE named after `operation`:
 * bytes that do not match the metadata, and a source that fails mid-body (a reset connection, a
 * read error), with that error as cause. Destroying the returned stream destroys the source, so
 * its file handle or socket is released.
 */
export function createVerifiedBody(source: Readable, options: VerifiedBodyOptions): Transform {
  const { store, operation } = options;
  const verifier = createVerifyingStream(options.meta, () => {
    options.onMismatch();
    return new StoreError({
      code: "STORE_UNAVAILABLE",
      store,
      operation,
      message: `[stores:${store}] ${operation} failed: the body does not match its metadata`,
    });
  });
  // Registered before pipeline's own listener, so the reader sees the StoreError, not the cause.
  source.once("error", (cause) => {
    verifier.destroy(new StoreError({ code: "STORE_UNAVAILABLE", store, operation, cause }));
  });
  pipeline(source, verifier, () => undefined);
  return verifier;
}
