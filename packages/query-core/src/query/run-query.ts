import {
  ContractError,
  createErrorResult,
  type QueryRequest,
  type QueryResult,
  type QueryToolOutput,
} from "@bounded-mcp/contract";
import { type CursorClaims, decodeCursor, encodeCursor } from "../cursor/cursor-codec.js";
import { runInSlices, runToEnd, type SliceOptions, type Work } from "../schedule/work.js";
import { arrayBytes, OBJECT_BYTES, stringBytes } from "../views/view-bytes.js";
import { jsonPathKey, type ViewSlot, viewSlotOf } from "../views/view-slot.js";
import { compileField } from "./compiled-path.js";
import { compileAggregate, compileSort, extensionsUsed } from "./extensions.js";
import { compileFilters } from "./filters.js";
import { emptyJsonPathWarning, selectJsonPathRows } from "./json-path.js";
import {
  type PageBase,
  pageCollection,
  pageDescribe,
  pagePlain,
  pageSingle,
} from "./page-selection.js";
import { pageTextSearch, type SearchResume } from "./page-text-search.js";
import { type PlanNotes, planCollectionOnce } from "./plan-collection.js";
import type { QueryContext } from "./query-context.js";
import { type SelectedValue, selectResponsePath } from "./select-path.js";
import { computeViewHash } from "./view-hash.js";

/** What the query tool returns: the result (structuredContent) and whether it is an error. */
export interface QueryOutcome {
  result: QueryToolOutput;
  isError: boolean;
}

function invalidControls(field: string, expected: string, message: string): ContractError {
  return new ContractError({
    code: "INVALID_RESPONSE_CONTROLS",
    message,
    details: { field, expected },
  });
}

function checkCombination(request: QueryRequest): void {
  if (request.jsonPath === undefined) return;
  if (request.responsePath !== undefined || request.objectMode !== undefined) {
    const field = request.responsePath !== undefined ? "responsePath" : "objectMode";
    throw invalidControls(
      field,
      "jsonPath alone",
      `jsonPath selects rows from the document root and cannot be combined with ${field}: drop one of them.`,
    );
  }
}

function readCursor(request: QueryRequest, context: QueryContext, viewHash: string): SearchResume {
  if (request.cursor === undefined) return { offset: 0 };
  const decoded = decodeCursor(context.keyRing, request.cursor, {
    artifactId: request.artifactId,
    scopeHash: context.scopeHash,
    viewHash,
  });
  if (decoded.ok) {
    if (decoded.position === undefined) return { offset: decoded.offset };
    // Only a textSearch scan resumes at a position; a page of anything else never carries one.
    if (request.textSearch !== undefined)
      return { offset: decoded.offset, position: decoded.position };
  }
  const why = decoded.ok
    ? "was issued for other arguments"
    : {
        malformed: "is malformed",
        unknown_key: "was signed by a key this server does not know",
        mismatch: "was issued for another artifact or other arguments",
      }[decoded.reason];
  throw new ContractError({
    code: "INVALID_RESPONSE_CURSOR",
    message: `The cursor ${why}. Send it back with every other argument unchanged, or drop it to start from the first page.`,
    details: { reason: decoded.ok ? "mismatch" : decoded.reason },
  });
}

/** The rows a JSONPath selects, kept in the view cache (they depend on the document alone). */
function jsonPathRows(
  document: unknown,
  jsonPath: string,
  views: ViewSlot | null,
): Record<string, unknown>[] {
  const key = jsonPathKey(jsonPath);
  const kept = views?.get(key) as Record<string, unknown>[] | undefined;
  if (kept !== undefined) return kept;
  const rows = selectJsonPathRows(document, jsonPath);
  if (views !== null) {
    let bytes = arrayBytes(rows.length);
    for (const row of rows) bytes += OBJECT_BYTES + stringBytes(row.pointer as string);
    views.set(key, rows, bytes);
  }
  return rows;
}

/** What every cursor of one request's view is signed for. */
interface CursorSigner {
  readonly keyRing: QueryContext["keyRing"];
  readonly artifactId: string;
  readonly scopeHash: string;
  readonly viewHash: string;
}

/**
 * The cursor of the page at `offset` (bound to the request's signer: PageSpec.nextCursor). One
 * function for the process, bound per request, instead of a closure made per request: the
 * optimized code of a closure is held only through the closures, so a full collection between
 * two requests threw it away and each paging optimized it again.
 */
function nextCursorOf(this: CursorSigner, offset: number, position?: number): string {
  const claims: CursorClaims = {
    artifactId: this.artifactId,
    scopeHash: this.scopeHash,
    viewHash: this.viewHash,
    offset,
    position,
  };
  return encodeCursor(this.keyRing, claims);
}

function* answer(
  document: unknown,
  request: QueryRequest,
  context: QueryContext,
): Work<QueryResult> {
  checkCombination(request);
  const viewHash = computeViewHash(request, context.responseRoot);
  const resume = readCursor(request, context, viewHash);
  const offset = resume.offset;
  // A textSearch view is never kept: its scan may stop at the work limit (SPEC.md §9 rule 6).
  const views =
    request.textSearch === undefined ? viewSlotOf(context.viewCache, document, viewHash) : null;
  const rows =
    request.jsonPath === undefined ? null : jsonPathRows(document, request.jsonPath, views);
  const selection: SelectedValue =
    rows === null
      ? selectResponsePath(document, request, context.responseRoot)
      : { responsePath: "", pointer: "", value: rows };
  const warnings: string[] = [];
  if (context.sourceTruncated) {
    warnings.push(
      "The stored payload says itself that it is partial (sourceTruncated): counts cover what was stored.",
    );
  }
  const planned =
    request.describe !== true &&
    request.textSearch === undefined &&
    rows === null &&
    !isPlainPageRequest(request);
  const base: PageBase = {
    artifactId: request.artifactId,
    responsePath: selection.responsePath,
    inlineBytes: Math.min(context.limits.inlineBytes, context.limits.hardBytes),
    sourceTruncated: context.sourceTruncated,
    nextCursor: nextCursorOf.bind({
      keyRing: context.keyRing,
      artifactId: request.artifactId,
      scopeHash: context.scopeHash,
      viewHash,
    }),
    offset,
    pageSize: request.pageSize ?? context.limits.pageSize,
    warnings,
    views,
    // A planned request takes them from its plan, kept with the view (planCollectionOnce).
    extensions: planned ? [] : extensionsUsed(request),
  };
  if (rows !== null && rows.length === 0) {
    warnings.push(emptyJsonPathWarning(request.jsonPath as string));
  }
  // Every member written in the literal: one object shape for every request's notes.
  const notes: PlanNotes = {
    inferredResponsePath: selection.inferredResponsePath,
    normalizedFields: undefined,
    warnings,
  };
  if (request.describe === true) return pageDescribe(selection, base, context);
  if (request.textSearch !== undefined)
    return yield* pageTextSearch(request, selection, rows, base, context, resume);
  if (rows !== null) {
    return yield* pageCollection(
      {
        kind: "collection",
        items: rows,
        pointerOf: (index) => (rows[index] as Record<string, unknown>).pointer as string,
        fields: request.fields === undefined ? null : request.fields.map(compileField),
        filters: request.filters === undefined ? null : compileFilters(request.filters),
        sort: compileSort(request),
        aggregate: compileAggregate(request),
      },
      base,
      notes,
      "",
      "items",
    );
  }
  if (isPlainPageRequest(request)) return yield* pagePlain(selection, base, notes);
  const { plan, extensions } = yield* planCollectionOnce(request, selection, notes, views);
  base.extensions = extensions;
  if (plan.kind === "single")
    return pageSingle(plan.object, plan.fields, base, notes, selection.pointer);
  return yield* pageCollection(
    plan,
    base,
    notes,
    selection.pointer,
    request.objectMode === "entries" ? "entries" : "items",
  );
}

/**
 * Whether runQuery answers a request as a plain page of the selection (pagePlain): no describe,
 * textSearch, jsonPath, fields, filters, objectMode, sort or aggregate. runPartialQuery answers
 * these by counting the array alone, and fields/filters requests by a scan of what they read.
 */
export function isPlainPageRequest(request: QueryRequest): boolean {
  return (
    request.describe !== true &&
    request.textSearch === undefined &&
    request.jsonPath === undefined &&
    request.fields === undefined &&
    request.filters === undefined &&
    request.objectMode === undefined &&
    request.sort === undefined &&
    request.aggregate === undefined
  );
}

function toErrorResult(
  error: unknown,
  request: QueryRequest,
  context: QueryContext,
): QueryToolOutput {
  const echo = {
    artifactId: typeof request?.artifactId === "string" ? request.artifactId : null,
    responsePath:
      typeof request?.responsePath === "string"
        ? request.responsePath
        : (context?.responseRoot ?? null),
  };
  if (ContractError.isInstance(error)) {
    return createErrorResult({
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      ...echo,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return createErrorResult({
    code: "INVALID_RESPONSE_CONTROLS",
    message: `The query could not be answered (${reason}). Narrow responsePath or simplify the request.`,
    details: { reason: "internal" },
    ...echo,
  });
}

function failure(error: unknown, request: QueryRequest, context: QueryContext): QueryOutcome {
  try {
    return { result: toErrorResult(error, request, context), isError: true };
  } catch {
    return {
      result: createErrorResult({
        code: "INVALID_RESPONSE_CONTROLS",
        message: "The query could not be answered. Narrow responsePath or simplify the request.",
        details: { reason: "internal" },
      }),
      isError: true,
    };
  }
}

/**
 * Answers one `query_response_artifact` request (SPEC.md §3 to §5, §9) over an already parsed
 * document: responsePath with responseRoot fallback, jsonPath rows, collection inference, prefix
 * recovery, objectMode entries, filters with honest counts, projection, describe, textSearch, and
 * one page cut to `limits.inlineBytes` with a signed cursor bound to the view. Never throws: every
 * failure is an error result with a §6 code (at most 4096 bytes). `request` must come from the
 * contract's parseQueryRequest; a text/plain artifact is passed as its `{"lines": [...]}` document.
 * Runs to the end without pausing; `context.now`, when given, is the clock of the textSearch work
 * limit (`limits.queryWorkMs`); without it no time limit applies. A server with several callers
 * uses runQueryAsync, which answers the same and lets other callers run.
 */
export function runQuery(
  document: unknown,
  request: QueryRequest,
  context: QueryContext,
): QueryOutcome {
  // No closure made per call here: the optimized code of one is held only through the closures,
  // so a full collection between two calls threw it away and later pages optimized it again.
  try {
    return { result: runToEnd(answer(document, request, context), context.now), isError: false };
  } catch (error) {
    return failure(error, request, context);
  }
}

/** The default clock of runQueryAsync: one function for the process, not a closure per call. */
const performanceNow = (): number => performance.now();

/** How runQueryAsync shares the process: the slice length and how it pauses. */
export type QueryScheduleOptions = Omit<SliceOptions, "now">;

/**
 * Answers like runQuery, in slices (§9 rule 6): the long loops of a query (filters, sort,
 * aggregate, entry and key scans, textSearch) yield every few thousand items, and once `sliceMs`
 * (50 by default) of work have passed the query awaits `pause` (the next `setImmediate` by
 * default), so a cheap query of another caller waits at most about one slice. The clock is
 * `context.now`, else `performance.now`; the textSearch work limit counts work time only, not
 * the time spent paused. Never rejects.
 */
export async function runQueryAsync(
  document: unknown,
  request: QueryRequest,
  context: QueryContext,
  options: QueryScheduleOptions = {},
): Promise<QueryOutcome> {
  const now = context.now ?? performanceNow;
  try {
    const work = answer(document, request, context);
    return { result: await runInSlices(work, { ...options, now }), isError: false };
  } catch (error) {
    return failure(error, request, context);
  }
}
