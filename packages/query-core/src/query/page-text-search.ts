import type { QueryRequest, QueryResult } from "@bounded-mcp/contract";
import type { Work } from "../schedule/work.js";
import { buildPage } from "./page-result.js";
import { type PageBase, pastEndError } from "./page-selection.js";
import type { QueryContext } from "./query-context.js";
import type { SelectedValue } from "./select-path.js";
import { type SearchRoot, searchText } from "./text-search.js";

/**
 * The jsonPath rows a text search walks: each pointer once, and no row inside another row (as
 * `$..*` selects), so every string is searched, and counted, once.
 */
function outermostRows(rows: readonly Record<string, unknown>[]): SearchRoot[] {
  const pointers = new Set(rows.map((row) => row.pointer as string));
  const roots: SearchRoot[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const pointer = row.pointer as string;
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    let inside = false;
    for (let cut = pointer.lastIndexOf("/"); cut >= 0 && !inside; ) {
      inside = pointers.has(pointer.slice(0, cut));
      cut = cut === 0 ? -1 : pointer.lastIndexOf("/", cut - 1);
    }
    if (!inside) roots.push({ pointer, value: row.value });
  }
  return roots;
}

/** Where a textSearch page starts: the scan position and match count a resuming cursor carries. */
export interface SearchResume {
  /** Matches on earlier pages (the cursor's offset). */
  offset: number;
  /** The scan position to resume at; absent for the first page (or an offset-only cursor). */
  position?: number;
}

/**
 * Answers textSearch (§4.9, §9 rule 6): match contexts under the selection (or the jsonPath rows),
 * paged by matches. Every cursor resumes the scan right after the last returned match, so a next
 * page never searches again what earlier pages searched, and totalCount counts from the first
 * page on. A scan that takes more than `limits.queryWorkMs` of work time stops there and answers
 * what it found with `work_limit`: totalCount is the matches found so far, remainingCount null,
 * and the cursor resumes where the scan stopped (possibly inside one string).
 */
export function* pageTextSearch(
  request: QueryRequest,
  selection: SelectedValue,
  rows: readonly Record<string, unknown>[] | null,
  base: PageBase,
  context: QueryContext,
  resume: SearchResume,
): Work<QueryResult> {
  const search = request.textSearch as NonNullable<QueryRequest["textSearch"]>;
  const count = Math.min(base.pageSize, context.limits.textSearchMatchesPerPage);
  const roots =
    rows === null ? [{ pointer: selection.pointer, value: selection.value }] : outermostRows(rows);
  const resumeAt = resume.position ?? 0;
  const matchesBefore = resume.position === undefined ? 0 : resume.offset;
  const outcome = yield* searchText(roots, {
    query: search.query,
    caseSensitive: search.caseSensitive ?? false,
    resumeAt,
    matchesBefore,
    keepFrom: resume.offset,
    count,
    contextChars: context.limits.textSearchContextChars,
    workMs: context.limits.queryWorkMs,
  });
  if (outcome.complete && (outcome.position < resumeAt || resume.offset > outcome.total)) {
    throw pastEndError(resume.offset, outcome.total);
  }
  const found = outcome.matches.length;
  return buildPage({
    ...base,
    layout: { kind: "array" },
    unit: "matches",
    total: outcome.total,
    limit: found,
    elementAt: (index) => {
      const match = outcome.matches[index - resume.offset] as Record<string, unknown>;
      return { value: match, pointer: match.pointer as string };
    },
    compactionReason: "item_size_limit",
    matchLimited: true,
    workLimited: !outcome.complete,
    nextCursor: (next) =>
      base.nextCursor(
        next,
        next === resume.offset
          ? outcome.position
          : (outcome.ends[next - resume.offset - 1] as number),
      ),
    ...(selection.inferredResponsePath === undefined
      ? {}
      : { inferredResponsePath: selection.inferredResponsePath }),
  });
}
