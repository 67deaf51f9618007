import { it } from "vitest";
import { StoreError } from "../store-error.js";
import type {
  ArtifactMeta,
  ArtifactStore,
  ExpiredArtifact,
  StoreCapabilities,
  StoredArtifact,
} from "../types.js";
import type { TestClock } from "./fixtures.js";

/** One MiB. */
export const MIB = 1024 * 1024;
/** The suite clock's starting time. */
export const START = 10_000;

/** Ids every store must reject, with a readable label for the test title. */
export const INVALID_IDS: readonly [string, string][] = [
  ["a parent traversal", "../../../../etc/passwd"],
  ["a lone dot-dot", ".."],
  ["a slash inside", "artifact_0000/0000000000"],
  ["a backslash inside", "artifact_0000\\000000000"],
  ["an encoded traversal", "%2e%2e%2fartifact_000000000"],
  ["a dotted file name", "artifact.000000000000.json"],
  ["a NUL byte", "artifact_000000000000\u0000"],
  ["a space", " artifact_000000000000"],
  ["a non-ASCII letter", "artifact_00000000000é"],
  ["the empty string", ""],
  ["19 characters", "a".repeat(19)],
  ["101 characters", "a".repeat(101)],
];

/** What every case group gets from `runStoreConformanceSuite`. */
export interface SuiteContext {
  name: string;
  capabilities: StoreCapabilities;
  largeBodyBytes: number;
  concurrency: number;
  slowTimeout: number;
  /** A store over a fresh (or the given) location, disposed after the case. */
  open(
    clock: TestClock,
    extra?: { location?: string; quotaBytes?: number },
  ): Promise<ArtifactStore>;
  /** A store over a fresh location with its own clock at START. */
  fresh(): Promise<{ store: ArtifactStore; clock: TestClock }>;
  /** A location no other case uses. */
  nextLocation(): string;
  /** `it`, or a visibly skipped test when the store declares the capability missing. */
  itWhen(capability: keyof StoreCapabilities): (title: string, body: () => Promise<void>) => void;
}

/** A `get` answer as a live artifact, or null when it is unknown or expired. */
export function storedOf(found: StoredArtifact | ExpiredArtifact | null): StoredArtifact | null {
  return found === null || "expired" in found ? null : found;
}

/** A `head` answer as live metadata, or null when it is unknown or expired. */
export function metaOf(found: ArtifactMeta | ExpiredArtifact | null): ArtifactMeta | null {
  return found === null || "expired" in found ? null : found;
}

/** Which of `ids` the store serves now (head answers live metadata), in the given order. */
export async function liveOf(store: ArtifactStore, ids: readonly string[]): Promise<string[]> {
  const live: string[] = [];
  for (const id of ids) if (metaOf(await store.head(id)) !== null) live.push(id);
  return live;
}

/** The parts of a StoreError a case compares. */
export interface ErrorShape {
  name: string;
  code: string;
  store: string;
  operation: string;
}

/** How `promise` settled: the StoreError's shape, or a string saying it did not fail like one. */
export async function rejectionOf(promise: Promise<unknown>): Promise<ErrorShape | string> {
  try {
    await promise;
  } catch (error) {
    if (!StoreError.isInstance(error)) return `not a StoreError: ${String(error)}`;
    return { name: error.name, code: error.code, store: error.store, operation: error.operation };
  }
  return "resolved";
}

/**
 * `it` when the store has the capability; otherwise it.skip with the reason in the title. This is
 * the declared-capability mechanism, the only place the suite skips anything.
 */
export function createItWhen(
  name: string,
  capabilities: StoreCapabilities,
): SuiteContext["itWhen"] {
  return (capability) =>
    capabilities[capability]
      ? (title, body) => {
          it(title, body);
        }
      : (title, body) => {
          // Justified skip: a case of a capability the store declares it lacks (the memory store
          // is neither persistent nor shared; the S3 store has no quota and no staging). It is
          // shown as skipped with the reason, so the report says what was not checked; a store
          // that declares the capability runs the case.
          it.skip(`${title} (skipped: ${name} declares no "${capability}" capability)`, body);
        };
}
