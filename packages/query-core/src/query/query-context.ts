import type { ArtifactMediaType, Limits } from "@bounded-mcp/contract";
import type { KeyRing } from "../cursor/key-ring.js";
import type { ViewCache } from "../views/view-cache.js";

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
  /**
   * Where the views of parsed documents are remembered (createViewCache; README "View cache"):
   * with it, later pages and following cursors of a filtered, sorted or aggregated view, and the
   * entries of a keyed object, cost only the page. Answers are the same with and without it.
   * Pass the same cache with the same parsed document object; without it nothing is kept.
   */
  viewCache?: ViewCache;
}
