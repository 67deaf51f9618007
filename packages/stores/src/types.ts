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
  /**
   * How the body encodes the payload when not as itself: `"json-string"` for a text/plain payload
   * holding lone surrogates (UTF-8 cannot write them), stored as the JSON string of its text so
   * every read path answers the same text (SPEC.md §10). Absent for every other artifact.
   */
  bodyEncoding?: "json-string";
  /**
   * What the bounder's inexact-number candidate test (query-core `mayHoldInexactNumbers`,
   * SPEC.md §10) said of exactly these body bytes, recorded when it ran: `false` lets a reader
   * parse the body with plain JSON.parse, `true` sends it straight to the exact parse. Absent
   * (an artifact written by an older version, a payload the bounder did not test, text): the
   * reader tests the body itself. Only an optimisation of which parser runs; a wrong `false`
   * would change numbers, so every store keeps it under the same integrity as the body
   * (SECURITY.md).
   */
  exactCandidates?: boolean;
}

/** What a backend can do; the conformance suite skips (visibly) only what a store declares missing. */
export interface StoreCapabilities {
  /** Artifacts survive a new store instance over the same location. */
  persistent: boolean;
  /** Several processes may share the location (replicas). */
  shared: boolean;
  /** A byte quota is enforced on put. */
  quota: boolean;
  /** The store implements StagingArtifactStore (`stage`): it takes a body over before its metadata. */
  staging: boolean;
}

/** An artifact's body with its metadata. */
export interface StoredArtifact {
  meta: ArtifactMeta;
  body: Buffer;
}

/**
 * What a store still knows of an artifact that expired: never its body, only enough for the
 * caller to answer "expired" rather than "unknown" (and to check the scope first). A store reports
 * it until the artifact is swept, and for a grace period after where the store itself removed it.
 */
export interface ExpiredArtifact {
  readonly expired: true;
  id: string;
  scopeHash: string;
  expiresAt: number;
}

/** What a sweep removed. */
export interface SweepResult {
  removed: number;
  freedBytes: number;
}

/**
 * The one interface every backend implements. Small on purpose: a new backend is a factory that
 * returns a plain object with these members, and `@bounded-mcp/stores/testing` checks it. What
 * only some backends can do is a declared capability with its own interface (StagingArtifactStore).
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
  put(meta: ArtifactMeta, body: Uint8Array): Promise<void>;
  /** The artifact; an ExpiredArtifact once it expired (see there); null when unknown. */
  get(id: string): Promise<StoredArtifact | ExpiredArtifact | null>;
  /** The metadata without the body; an ExpiredArtifact once it expired; null when unknown. */
  head(id: string): Promise<ArtifactMeta | ExpiredArtifact | null>;
  /** Removes the artifact; removing an unknown id is not an error. Afterwards the id is unknown. */
  delete(id: string): Promise<void>;
  /** Removes every artifact expired at `now` (default: the store's clock). */
  sweep(now?: number): Promise<SweepResult>;
  /** Releases timers and connections; idempotent. Every later call fails with STORE_UNAVAILABLE. */
  dispose(): Promise<void>;
}

/**
 * The `staging` capability (the fs and memory stores): an in-process caller hands a body over
 * before its metadata is known, so the store's work overlaps the caller's (the fs store writes
 * the temp file in the background while the adapter parses the payload; the memory store keeps
 * the Buffer without a copy). Nothing is visible until `commit`.
 */
export interface StagingArtifactStore extends ArtifactStore {
  /**
   * Takes `body` over: the caller never changes it again (the store may keep it as is). Finish
   * with `commit(meta)` or `discard()`; the store's dispose discards what is left.
   */
  stage(body: Uint8Array): StagedBody;
}

/** What `commit` of a staged body may be told. */
export interface CommitOptions {
  /**
   * meta.sha256 was computed from these very bytes in this process: the store checks id, cap and
   * byte length but does not hash the body again (a persisted store still verifies length and
   * sha256 of what it reads back).
   */
  sha256FromBody?: boolean;
}

/** A body a StagingArtifactStore took over before its metadata was known. */
export interface StagedBody {
  /**
   * Stores the staged body with `meta` in one atomic step, with put's checks and failures. Once:
   * a second commit, or a commit after discard, rejects with STORE_UNAVAILABLE.
   */
  commit(meta: ArtifactMeta, options?: CommitOptions): Promise<void>;
  /** Drops the staged bytes when no commit follows (or after one: then a no-op). Idempotent; never rejects. */
  discard(): Promise<void>;
}
