import { ARTIFACT_ID_PATTERN } from "@bounded-mcp/contract";
import { StoreError } from "./store-error.js";

/**
 * True when `id` is a contract artifact id (`^[A-Za-z0-9_-]{20,100}$`). Such an id has no path
 * separator, no dot and a bounded length, so every backend can use it as a file name or object
 * key as is.
 */
export function isValidArtifactId(id: unknown): id is string {
  return typeof id === "string" && ARTIFACT_ID_PATTERN.test(id);
}

/** Throws StoreError INVALID_ARTIFACT_ID unless `id` is a contract artifact id. */
export function assertValidArtifactId(id: unknown, store: string, operation: string): string {
  if (!isValidArtifactId(id)) {
    throw new StoreError({
      code: "INVALID_ARTIFACT_ID",
      store,
      operation,
      message: `[stores:${store}] ${operation} failed: the artifact id does not match ${String(ARTIFACT_ID_PATTERN)}`,
    });
  }
  return id;
}
