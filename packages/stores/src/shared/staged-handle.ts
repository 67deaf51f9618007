import { StoreError } from "../store-error.js";
import type { ArtifactMeta, CommitOptions, StagedBody } from "../types.js";

/** What a backend does to finish or drop one staged body; each is called at most once. */
export interface StagedWork {
  commit(meta: ArtifactMeta, options: CommitOptions | undefined): Promise<void>;
  /** Drops what the backend staged; must not reject. */
  discard(): Promise<void>;
}

/**
 * A StagedBody over a backend's work with the once-rules of the interface: one commit, a commit
 * after discard (or a second commit) rejects with STORE_UNAVAILABLE, discard is idempotent and a
 * no-op after a commit, and a failed commit discards what was staged.
 */
export function createStagedHandle(store: string, work: StagedWork): StagedBody {
  let state: "staged" | "committing" | "done" = "staged";
  const settled = async (): Promise<void> => {
    if (state !== "staged") return;
    state = "done";
    await work.discard();
  };
  return {
    async commit(meta, options) {
      if (state !== "staged") {
        throw new StoreError({
          code: "STORE_UNAVAILABLE",
          store,
          operation: "commit",
          message: `[stores:${store}] commit failed: the staged body was already committed or discarded`,
        });
      }
      state = "committing";
      try {
        await work.commit(meta, options);
      } catch (error) {
        await work.discard();
        throw error;
      } finally {
        state = "done";
      }
    },
    async discard() {
      await settled();
    },
  };
}
