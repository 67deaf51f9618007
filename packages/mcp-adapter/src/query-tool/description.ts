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

/**
 * The query tool's description (under 1,500 characters): what an artifact is, to start with
 * describe, to send cursors back with the same arguments, and how long artifacts are kept.
 */
export function createQueryToolDescription(ttlMs: number): string {
  return [
    "Read an oversized tool result that was stored as an artifact. When a result is too large, you get a preview with responseMeta.artifact.id; pass that id as artifactId.",
    "Start with {artifactId, describe: true} to see the shape (keys, item keys, lengths); responseMeta.artifact.primaryPaths lists the collections worth querying.",
    'Then select with responsePath (an RFC 6901 pointer such as "/items"; "" is the whole result), project with fields, narrow with filters ({path, op, value}; op eq, ne, in, contains, icontains, lt, lte, gt, gte, exists), search strings with textSearch, or use objectMode "entries" for keyed objects.',
    "Results come in pages (pageSize 1-100, default 20). When responseMeta.nextCursor is not null, call again with every other argument unchanged plus cursor; a cursor only works with the exact arguments it came from.",
    "Errors come back as response.error with a code and details that say how to correct the call (for example a suggestedKey or suggestedRequest).",
    `Artifacts are kept for ${formatRetention(ttlMs)} after the tool call; after that, call the original tool again.`,
  ].join(" ");
}
