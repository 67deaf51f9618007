import type { ArtifactMeta, ExpiredArtifact } from "../types.js";

/** How long a store remembers an artifact it removed as expired, by default: one hour. */
export const DEFAULT_EXPIRED_GRACE_MS = 60 * 60 * 1000;
/** How many removed artifacts a store remembers at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 10_000;

/**
 * The artifacts this store removed because they expired (sweep, quota pruning), remembered for a
 * grace period so a late query still reads "expired" rather than "unknown". Only this store
 * instance knows them: another process sharing the location, or a restart, does not. Bounded to
 * MAX_REMEMBERED entries of a few dozen bytes each.
 */
export interface ExpiredMemory {
  /** Remembers an artifact removed at `now` because it expired. */
  remember(meta: Pick<ArtifactMeta, "id" | "scopeHash" | "expiresAt">, now: number): void;
  /** What is remembered of `id` at `now`, or null (never remembered, or the grace is over). */
  recall(id: string, now: number): ExpiredArtifact | null;
  /** Forgets `id` (it was put again or deleted). */
  forget(id: string): void;
}

/** An empty ExpiredMemory keeping each entry `graceMs` after its removal (0 keeps nothing). */
export function createExpiredMemory(graceMs = DEFAULT_EXPIRED_GRACE_MS): ExpiredMemory {
  const entries = new Map<string, { expired: ExpiredArtifact; until: number }>();
  return {
    remember(meta, now) {
      if (graceMs <= 0) return;
      entries.delete(meta.id);
      entries.set(meta.id, { expired: expiredOf(meta), until: now + graceMs });
      if (entries.size > MAX_REMEMBERED) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
    },
    recall(id, now) {
      const entry = entries.get(id);
      if (entry === undefined) return null;
      if (now >= entry.until) {
        entries.delete(id);
        return null;
      }
      return { ...entry.expired };
    },
    forget(id) {
      entries.delete(id);
    },
  };
}

/** The ExpiredArtifact of a stored artifact's metadata (a fresh object). */
export function expiredOf(
  meta: Pick<ArtifactMeta, "id" | "scopeHash" | "expiresAt">,
): ExpiredArtifact {
  return { expired: true, id: meta.id, scopeHash: meta.scopeHash, expiresAt: meta.expiresAt };
}
