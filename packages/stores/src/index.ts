export { assertValidArtifactId, isValidArtifactId } from "./artifact-id.js";
export {
  createMemoryStore,
  DEFAULT_MEMORY_MAX_BYTES,
  type MemoryStoreOptions,
} from "./memory/memory-store.js";
export { SILENT_STORE_LOGGER, type StoreLogger } from "./shared/logger.js";
export { StoreError, type StoreErrorCode, type StoreErrorOptions } from "./store-error.js";
export type {
  ArtifactMeta,
  ArtifactStore,
  PutOptions,
  StagedBody,
  StoreCapabilities,
  StoredArtifact,
  StoreUsage,
  StreamedArtifact,
  SweepResult,
} from "./types.js";
