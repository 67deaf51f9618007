import { hash } from "node:crypto";
import { DEFAULT_LIMITS, type Filter, type QueryRequest } from "@bounded-mcp/contract";
import { canonicalJson } from "./canonical-json.js";

/** A filter with op `eq` filled in (inside an anyOf too). */
function withDefaultOp(filter: Filter): Filter {
  if ("anyOf" in filter) {
    return { anyOf: filter.anyOf.map((inner) => ({ ...inner, op: inner.op ?? "eq" })) };
  }
  return { ...filter, op: filter.op ?? "eq" };
}

/**
 * The hash of a query's view (SPEC.md §7, §9): sha256 (base64url) of the canonical JSON of every
 * argument but `cursor`, after defaults are filled in (filter op `eq`, textSearch caseSensitive
 * false, pageSize 20, responsePath the artifact's responseRoot, sort order `asc`, aggregate
 * unwind `false` and metrics `[{op: "count"}]`). A cursor is bound to it, so a
 * cursor sent back with any other argument changed is rejected; arguments that only differ by an
 * omitted default are the same view.
 */
export function computeViewHash(request: QueryRequest, responseRoot: string): string {
  const { cursor: _cursor, ...view } = request;
  const canonical: Record<string, unknown> = {
    ...view,
    responsePath: request.responsePath ?? responseRoot,
    pageSize: request.pageSize ?? DEFAULT_LIMITS.pageSize,
  };
  if (request.filters !== undefined) canonical.filters = request.filters.map(withDefaultOp);
  if (request.sort !== undefined) {
    canonical.sort = request.sort.map((key) => ({ ...key, order: key.order ?? "asc" }));
  }
  if (request.aggregate !== undefined) {
    canonical.aggregate = {
      ...request.aggregate,
      unwind: request.aggregate.unwind ?? false,
      metrics: request.aggregate.metrics ?? [{ op: "count" }],
    };
  }
  if (request.textSearch !== undefined) {
    canonical.textSearch = {
      ...request.textSearch,
      caseSensitive: request.textSearch.caseSensitive ?? false,
    };
  }
  // The one-shot hash: no Hash object and stream machinery per request (half the cost).
  return hash("sha256", canonicalJson(canonical), "base64url");
}
