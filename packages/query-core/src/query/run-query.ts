import {
  ContractError,
  createErrorResult,
  type QueryRequest,
  type QueryResult,
  type QueryToolOutput,
} from "@bounded-mcp/contract";
import { decodeCursor, encodeCursor } from "../cursor/cursor-codec.js";
import { compileField } from "./compiled-path.js";
import { compileAggregate, compileSort, extensionsUsed } from "./extensions.js";
import { compileFilters } from "./filters.js";
import { selectJsonPathRows } from "./json-path.js";
import {
  type PageBase,
  pageCollection,
  pageDescribe,
  pagePlain,
  pageSingle,
  pageTextSearch,
} from "./page-selection.js";
import { type PlanNotes, planCollection } from "./plan-collection.js";
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

function readCursorOffset(request: QueryRequest, context: QueryContext, viewHash: string): number {
  if (request.cursor === undefined) return 0;
  const decoded = decodeCursor(context.keyRing, request.cursor, {
    artifactId: request.artifactId,
    scopeHash: context.scopeHash,
    viewHash,
  });
  if (decoded.ok) return decoded.offset;
  const why = {
    malformed: "is malformed",
    unknown_key: "was signed by a key this server does not know",
    mismatch: "was issued for another artifact or other arguments",
  }[decoded.reason];
  throw new ContractError({
    code: "INVALID_RESPONSE_CURSOR",
    message: `The cursor ${why}. Send it back with every other argument unchanged, or drop it to start from the first page.`,
    details: { reason: decoded.reason },
  });
}

function answer(document: unknown, request: QueryRequest, context: QueryContext): QueryResult {
  checkCombination(request);
  const viewHash = computeViewHash(request, context.responseRoot);
  const offset = readCursorOffset(request, context, viewHash);
  const rows =
    request.jsonPath === undefined ? null : selectJsonPathRows(document, request.jsonPath);
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
  const base: PageBase = {
    artifactId: request.artifactId,
    responsePath: selection.responsePath,
    inlineBytes: Math.min(context.limits.inlineBytes, context.limits.hardBytes),
    sourceTruncated: context.sourceTruncated,
    nextCursor: (next) =>
      encodeCursor(context.keyRing, {
        artifactId: request.artifactId,
        scopeHash: context.scopeHash,
        viewHash,
        offset: next,
      }),
    offset,
    pageSize: request.pageSize ?? context.limits.pageSize,
    warnings,
    extensions: extensionsUsed(request),
  };
  const notes: PlanNotes = { warnings };
  if (selection.inferredResponsePath !== undefined) {
    notes.inferredResponsePath = selection.inferredResponsePath;
  }
  if (request.describe === true) return pageDescribe(selection, base, context);
  if (request.textSearch !== undefined)
    return pageTextSearch(request, selection, rows, base, context);
  if (rows !== null) {
    return pageCollection(
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
  if (isPlainPageRequest(request)) return pagePlain(selection, base, notes);
  const plan = planCollection(request, selection, notes);
  if (plan.kind === "single")
    return pageSingle(plan.object, plan.fields, base, notes, selection.pointer);
  return pageCollection(
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
 * exactly these.
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

/**
 * Answers one `query_response_artifact` request (CONTRACT-v3 §3 to §5) over an already parsed
 * document: responsePath with responseRoot fallback, jsonPath rows, collection inference, prefix
 * recovery, objectMode entries, filters with honest counts, projection, describe, textSearch, and
 * one page cut to `limits.inlineBytes` with a signed cursor bound to the view. Never throws: every
 * failure is an error result with a §6 code (at most 4096 bytes). `request` must come from the
 * contract's parseQueryRequest; a text/plain artifact is passed as its `{"lines": [...]}` document.
 */
export function runQuery(
  document: unknown,
  request: QueryRequest,
  context: QueryContext,
): QueryOutcome {
  try {
    return { result: answer(document, request, context), isError: false };
  } catch (error) {
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
}
