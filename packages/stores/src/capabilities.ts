import type { ArtifactStore, ExpiredArtifact, StagingArtifactStore } from "./types.js";

/**
 * True when the store declares the `staging` capability and has `stage`: the caller may hand it
 * bodies before their metadata (see StagingArtifactStore). A caller without it uses `put`.
 */
export function canStage(store: ArtifactStore): store is StagingArtifactStore {
  return (
    store.capabilities.staging &&
    typeof (store as Partial<StagingArtifactStore>).stage === "function"
  );
}

/** True for what `get` or `head` return for an artifact that expired (never for a live one). */
export function isExpiredArtifact(value: unknown): value is ExpiredArtifact {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Partial<ExpiredArtifact>).expired === true
  );
}
