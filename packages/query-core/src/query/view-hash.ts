import { hash } from "node:crypto";
import { DEFAULT_LIMITS, type Filter, type QueryRequest } from "@bounded-mcp/contract";
import { stringifyExact } from "../exact/stringify-exact.js";
import { canonicalJson } from "./canonical-json.js";

/** A filter with op `eq` filled in (inside an anyOf too). */
function withDefaultOp(filter: Filter): Filter {
  if ("anyOf" in filter) {
    return { anyOf: filter.anyOf.map((inner) => ({ ...inner, op: inner.op ?? "eq" })) };
  }
  return { ...filter, op: filter.op ?? "eq" };
}

/**
 * View hashes computed lately, by the request's own JSON text (without the cursor) and the
 * responseRoot: each page of a view sends the same arguments, so its hash is computed once, not
 * once a page (canonical JSON and SHA-256 were about a tenth of a cached page). Bounded.
 */
const computed = new Map<string, string>();
const COMPUTED_LIMIT = 256;

/**
 * The hash of a query's view (SPEC.md §7, §9): sha256 (base64url) of the canonical JSON of every
 * argument but `cursor`, after defaults are filled in (filter op `eq`, textSearch caseSensitive
 * false, pageSize 20, responsePath the artifact's responseRoot, sort order `asc`, aggregate
 * unwind `false` and metrics `[{op: "count"}]`). A cursor is bound to it, so a
 * cursor sent back with any other argument changed is rejected; arguments that only differ by an
 * omitted default are the same view.
 */
export function computeViewHash(request: QueryRequest, responseRoot: string): string {
  const key = memoKey(request, responseRoot);
  if (key !== null) {
    const kept = computed.get(key);
    if (kept !== undefined) return kept;
  }
  const { cursor: _cursor, ...view } = request;
  const viewHash = hashView(request, view, responseRoot);
  if (key !== null) {
    computed.set(key, viewHash);
    if (computed.size > COMPUTED_LIMIT) computed.delete(computed.keys().next().value as string);
  }
  return viewHash;
}

/**
 * The memo key of a request's view, or null when it has none: the responseRoot and the JSON
 * text of the request without its cursor (the text of the view with the cursor left out, which
 * is the request's text with the member `"cursor":<its JSON>` and one comma beside it cut out,
 * when that member text occurs exactly once; else no key). Only a request of plain JSON values
 * (no ExactNumber, whose text alone need not say which canonical form it hashes as) is
 * memoized: for those, equal texts are equal requests, so a memoized hash is the hash they would
 * get. The request is serialized as it came (no copy without the cursor: an object rest copy
 * was about a fifth of a later page's view lookup).
 */
function memoKey(request: QueryRequest, responseRoot: string): string | null {
  let written: ReturnType<typeof stringifyExact>;
  try {
    written = stringifyExact(request);
  } catch {
    return null;
  }
  if (written === undefined || written.count > 0) return null;
  const text =
    typeof request.cursor === "string" ? withoutCursor(written.text, request.cursor) : written.text;
  return text === null ? null : `${responseRoot.length}:${responseRoot}${text}`;
}

/** A request's JSON text without its top-level cursor member (see memoKey); null if unsure. */
function withoutCursor(text: string, cursor: string): string | null {
  const member = `"cursor":${JSON.stringify(cursor)}`;
  const at = text.indexOf(member);
  const end = at + member.length;
  if (at < 0 || text.indexOf(member, end) >= 0) return null;
  if (text.charCodeAt(at - 1) === COMMA) return text.slice(0, at - 1) + text.slice(end);
  if (text.charCodeAt(end) === COMMA) return text.slice(0, at) + text.slice(end + 1);
  return text.slice(0, at) + text.slice(end);
}

const COMMA = 44;

function hashView(
  request: QueryRequest,
  view: Omit<QueryRequest, "cursor">,
  responseRoot: string,
): string {
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
