import { hash } from "node:crypto";
import { DEFAULT_LIMITS, type QueryRequest } from "@bounded-mcp/contract";

/** Canonical JSON: object keys sorted by code unit, no whitespace, undefined members left out. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${members.join(",")}}`;
}

/**
 * The hash of a query's view (CONTRACT-v3 §7): sha256 (base64url) of the canonical JSON of every
 * argument but `cursor`, after defaults are filled in (filter op `eq`, textSearch caseSensitive
 * false, pageSize 20, responsePath the artifact's responseRoot). A cursor is bound to it, so a
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
  if (request.filters !== undefined) {
    canonical.filters = request.filters.map((filter) => ({ ...filter, op: filter.op ?? "eq" }));
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
