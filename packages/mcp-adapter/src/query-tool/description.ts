/** Writes a duration as the largest whole unit that fits ("24 hours", "30 minutes"). */
export function formatRetention(ttlMs: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1_000, "second"],
  ];
  for (const [size, name] of units) {
    if (ttlMs >= size && ttlMs % size === 0) {
      const count = ttlMs / size;
      if (name === "day" && count === 1) return "24 hours";
      return `${count} ${name}${count === 1 ? "" : "s"}`;
    }
  }
  return `${ttlMs} ms`;
}

/** The longest description the query tool may have, note excluded: every tools/list carries it. */
export const MAX_QUERY_TOOL_DESCRIPTION_CHARS = 1_500;

/** The description's worked example of sort (a test sends it): the top 5 by views. */
export const SORT_EXAMPLE = Object.freeze({
  sort: [{ path: "/views", order: "desc" }],
  pageSize: 5,
});

/** The description's worked example of aggregate (a test sends it): count and max views per type. */
export const AGGREGATE_EXAMPLE = Object.freeze({
  aggregate: {
    groupBy: "/type",
    metrics: [{ op: "count" }, { op: "max", path: "/views" }],
  },
});

/**
 * The query tool's description (at most 1,500 characters): what an artifact is, to start with
 * describe, what selects, projects, filters and searches, one worked example of sort and one of
 * aggregate (so a question like "which have the most views" or "how many of each type" is one
 * call, not a walk through every page), cursors, errors, and how long artifacts are kept:
 * `ephemeralStore` (a store that loses its artifacts when the process exits, the memory store)
 * says they last while the server runs, as the envelopes of such a store do.
 */
export function createQueryToolDescription(ttlMs: number, ephemeralStore = false): string {
  return [
    "Read an oversized tool result stored as an artifact: pass responseMeta.artifact.id as artifactId.",
    "Start with {artifactId, describe: true} for the shape; responseMeta.artifact.primaryPaths lists the collections.",
    'Select with responsePath (an RFC 6901 pointer such as "/items"; "" is the whole result), project with fields, narrow with filters ({path, op, value}; op eq, ne, in, nin, contains, icontains, lt, lte, gt, gte, exists; {anyOf: [filters]} for OR; measure: "length" compares lengths), search strings with textSearch, use objectMode "entries" for keyed objects.',
    `Answer in one call instead of paging: ${JSON.stringify(SORT_EXAMPLE)} gives the 5 most viewed; ${JSON.stringify(AGGREGATE_EXAMPLE)} gives one row per type ({"/type":"email","count":12,"max(/views)":950}), largest group first (ops count, countDistinct, sum, avg, min, max; unwind: true groups each element of an array); without groupBy, one row over every selected item.`,
    "Pages: pageSize 1-100 (default 20); while responseMeta.nextCursor is not null, call again with the same arguments plus cursor (also after a textSearch stopped with work_limit).",
    "Errors come back as response.error with a code and details that say how to fix the call (suggestedPath, suggestedRequest).",
    ephemeralStore
      ? `Artifacts are kept while this server process runs, ${formatRetention(ttlMs)} at most; then call the original tool again.`
      : `Artifacts are kept for ${formatRetention(ttlMs)}; then call the original tool again.`,
  ].join(" ");
}
