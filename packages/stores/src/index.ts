export { assertValidArtifactId, isValidArtifactId } from "./artifact-id.js";
export { canStage, isExpiredArtifact } from "./capabilities.js";
export {
  AT_REST_KEY_BYTES,
  type AtRestKeyEntry,
  type AtRestKeys,
  createAtRestKeys,
  deriveAtRestKeys,
  type MacKeyRing,
} from "./encryption/at-rest-keys.js";
export { createEncryptedStore, type EncryptedStoreOptions } from "./encryption/encrypted-store.js";
export { SEALED_OVERHEAD_BYTES } from "./encryption/sealed-artifact.js";
export {
  createMemoryStore,
  DEFAULT_MEMORY_MAX_BYTES,
  type MemoryStoreOptions,
} from "./memory/memory-store.js";
export { DEFAULT_EXPIRED_GRACE_MS } from "./shared/expired-memory.js";
export { SILENT_STORE_LOGGER, type StoreLogger } from "./shared/logger.js";
export { StoreError, type StoreErrorCode, type StoreErrorOptions } from "./store-error.js";
export type {
  ArtifactMeta,
  ArtifactStore,
  CommitOptions,
  ExpiredArtifact,
  StagedBody,
  StagingArtifactStore,
  StoreCapabilities,
  StoredArtifact,
  SweepResult,
} from "./types.js";
