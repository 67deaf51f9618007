import type { ArtifactMediaType, Limits } from "@bounded-mcp/contract";
import type { KeyRing } from "../cursor/key-ring.js";

/**
 * What runQuery needs besides the document and the request: who asks (scopeHash, bound into
 * cursors), the key ring that signs cursors, the artifact's responseRoot (the fallback base of
 * responsePath), whether the source says it is partial, and the limits (inlineBytes is the budget
 * of one result).
 */
export interface QueryContext {
  scopeHash: string;
  keyRing: KeyRing;
  responseRoot: string;
  sourceTruncated: boolean;
  limits: Limits;
  /** `text/plain` artifacts are queried as the document `{"lines": [...]}` the caller passes in. */
  mediaType?: ArtifactMediaType;
  /**
   * Monotonic milliseconds (e.g. `performance.now`), the clock of the textSearch work limit and
   * of runQueryAsync's slices. runQuery without it applies no time limit; tests inject one.
   */
  now?: () => number;
}
