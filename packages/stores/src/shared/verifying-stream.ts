import { createHash } from "node:crypto";
import { Transform } from "node:stream";
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
