import type { Readable } from "node:stream";
import type { ArtifactMediaType } from "@bounded-mcp/contract";

/**
 * What a store keeps beside an artifact's bytes. Times are milliseconds since the epoch; a store
 * never returns an artifact whose `expiresAt` is at or before "now" (its injected clock).
 */
export interface ArtifactMeta {
  /** The artifact id (SPEC.md §7); also the store key. */
  id: string;
  /** Hash of the caller scope the artifact is bound to; compared by the adapter, not the store. */
  scopeHash: string;
  mediaType: ArtifactMediaType;
  /** Bytes of the stored body; always equal to the body's length. */
  byteLength: number;
  /** Lowercase hex sha256 of the body. */
  sha256: string;
  createdAt: number;
  expiresAt: number;
  responseRoot: string;
  primaryPaths: string[];
  sourceTruncated: boolean;
  contractVersion: 3;
}

/** What a backend can do; the conformance suite skips (visibly) only what a store declares missing. */
export interface StoreCapabilities {
  /** Artifacts survive a new store instance over the same location. */
  persistent: boolean;
  /** Several processes may share the location (replicas). */
  shared: boolean;
  /** A byte quota is enforced on put. */
  quota: boolean;
}

/** An artifact's body with its metadata. */
export interface StoredArtifact {
  meta: ArtifactMeta;
  body: Buffer;
}

/** An artifact's body as a stream, with its metadata. */
export interface StreamedArtifact {
  meta: ArtifactMeta;
  body: Readable;
}

/** Totals of what a store holds now, expired artifacts not yet swept included. */
export interface StoreUsage {
  /** Artifacts held. */
  count: number;
  /** Their bytes: body bytes (the S3 store counts object sizes, so a framed header is included). */
  bytes: number;
}

/** What a sweep removed. */
export interface SweepResult {
  removed: number;
  freedBytes: number;
}

/**
 * What an in-process caller may tell `put`; a store may ignore both. `sha256Computed`: meta.sha256
 * was computed by the caller from these very bytes in this process, so the store checks id, cap
 * and byte length but need not hash the body again (a persisted store still verifies length and
 * sha256 of what it reads back). `handOver`: the caller never touches the body again, so the store
 * may keep it without a defensive copy.
 */
export interface PutOptions {
  sha256Computed?: boolean;
  handOver?: boolean;
  /**
   * What `stage(body)` of this store returned for these very bytes: the store finishes the write
   * it started instead of writing the body again. Anything else staged under it is dropped.
   */
  staged?: StagedBody;
}

/**
 * A body a store started keeping before its metadata was known (`ArtifactStore.stage`). Pass it
 * to `put` with the same bytes, or discard it; a store's dispose discards what is left.
 */
export interface StagedBody {
  /** Drops the staged bytes when no put follows. Idempotent; never rejects. */
  discard(): Promise<void>;
}

/**
 * The one interface every backend implements. Small on purpose: a new backend is a factory that
 * returns a plain object with these members, and `@bounded-mcp/stores/testing` checks it.
 */
export interface ArtifactStore {
  /** The backend's short name (`[a-z0-9-]+`), e.g. "fs"; it prefixes error messages. */
  readonly name: string;
  /** What the backend can do; the conformance suite checks exactly these. */
  readonly capabilities: StoreCapabilities;
  /**
   * Stores body and metadata together in one atomic step; replaces an existing id. Rejects with a
   * StoreError: INVALID_ARTIFACT_ID, INVALID_META (byteLength or sha256 do not describe `body`),
   * QUOTA_EXCEEDED (stores with a quota), STORE_UNAVAILABLE (the backend failed).
   */
  put(meta: ArtifactMeta, body: Uint8Array, options?: PutOptions): Promise<void>;
  /**
   * Optional: starts writing `body` before its metadata is known (the fs store writes it to a
   * temp file in the background), so the write overlaps the caller's own work, such as parsing
   * the payload. Nothing is visible until `put(meta, body, { staged })` with the same bytes. The
   * caller must not change `body` until that put or discard settles.
   */
  stage?(body: Uint8Array): StagedBody;
  /** The artifact, or null when unknown or expired. */
  get(id: string): Promise<StoredArtifact | null>;
  /**
   * The artifact as a stream, or null when unknown or expired. Read it to the end or destroy it;
   * it fails with a StoreError (STORE_UNAVAILABLE) at its end if the bytes do not match the
   * metadata, and as soon as the backend fails mid-body (the backend's error as cause).
   */
  getStream(id: string): Promise<StreamedArtifact | null>;
  /** The metadata without the body, or null when unknown or expired. */
  head(id: string): Promise<ArtifactMeta | null>;
  /** Removes the artifact; removing an unknown id is not an error. */
  delete(id: string): Promise<void>;
  /** Removes every artifact expired at `now` (default: the store's clock). */
  sweep(now?: number): Promise<SweepResult>;
  /** What the store holds now, expired artifacts not yet swept included. */
  usage(): Promise<StoreUsage>;
  /** Releases timers and connections; idempotent. Every later call fails with STORE_UNAVAILABLE. */
  dispose(): Promise<void>;
}
