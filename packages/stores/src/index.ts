// The public surface of this package is filled in by its own issue; nothing is exported yet.
export type {
  ArtifactMeta,
  ArtifactStore,
  StoreCapabilities,
  StoredArtifact,
  StoreUsage,
  StreamedArtifact,
  SweepResult,
} from "./types.js";
