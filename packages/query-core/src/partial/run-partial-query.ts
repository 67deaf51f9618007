import { isAnyOfFilter, type QueryRequest } from "@bounded-mcp/contract";
import { decodeCursor } from "../cursor/cursor-codec.js";
import { parsePointer } from "../pointer/pointer.js";
import {
  type CompiledPath,
  compileField,
  compileFilterPath,
  resolvesOnAny,
} from "../query/compiled-path.js";
import { applyFilters, compileFilters } from "../query/filters.js";
import type { QueryContext } from "../query/query-context.js";
import { isPlainPageRequest, type QueryOutcome, runQuery } from "../query/run-query.js";
import { computeViewHash } from "../query/view-hash.js";
import { JsonScanner } from "./json-scanner.js";
import { locateArrayWindow } from "./locate-array.js";
import { type ItemPath, materializeItems, pathTreeOf } from "./materialize-items.js";

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** The cursor's offset when it verifies; 0 otherwise (runQuery then reports the bad cursor). */
function windowStart(request: QueryRequest, context: QueryContext): number {
  if (request.cursor === undefined) return 0;
  const decoded = decodeCursor(context.keyRing, request.cursor, {
    artifactId: request.artifactId,
    scopeHash: context.scopeHash,
    viewHash: computeViewHash(request, context.responseRoot),
  });
  return decoded.ok ? decoded.offset : 0;
}

/**
 * An array of `length` holding `elements` from index `start`, whose holes take no memory: the
 * last index is written first, so V8 keeps the elements in a dictionary (`new Array(length)`
 * would allocate 8 bytes per hole, 160 MB for 20 million elements).
 */
function sparseArray(length: number, start: number, elements: unknown[]): unknown[] {
  const array: unknown[] = [];
  if (length === 0) return array;
  array[length - 1] = undefined;
  elements.forEach((element, index) => {
    array[start + index] = element;
  });
  if (start + elements.length < length) Reflect.deleteProperty(array, length - 1);
  return array;
}

/**
 * A document with only what a plain page of the array at `tokens` reads: its ancestor objects,
 * and the array at its full length holding just the window's elements (the rest are holes that
 * a plain page never reads).
 */
function skeleton(tokens: readonly string[], array: unknown[]): unknown {
  let value: unknown = array;
  for (let depth = tokens.length - 1; depth >= 0; depth -= 1) {
    const token = tokens[depth] as string;
    const container: Record<string, unknown> = {};
    Object.defineProperty(container, token, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    value = container;
  }
  return value;
}

/** The reference tokens of the selection, or undefined when the byte path cannot follow it. */
function selectionTokens(request: QueryRequest, context: QueryContext): string[] | undefined {
  const pointer = request.responsePath ?? context.responseRoot;
  if (pointer !== "" && !pointer.startsWith("/")) return undefined;
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return undefined;
  }
  // A token that could be an array index is left to the full parse: the skeleton is objects only.
  return tokens.some((token) => ARRAY_INDEX.test(token)) ? undefined : tokens;
}

/** The paths a fields/filters request reads of each item. */
interface ItemPaths {
  fields: CompiledPath[];
  /** The paths of filters other than exists: each must resolve on some item. */
  filtersMustResolve: CompiledPath[];
  /** The paths filters read. */
  filterPaths: ItemPath[];
}

/**
 * The item paths of a request the byte path answers: fields and/or filters over an array, and
 * nothing else (no describe, textSearch, jsonPath, objectMode, sort, aggregate). Undefined when
 * the request is of another kind or a path does not compile (runQuery then reports it).
 */
function itemPathsOf(request: QueryRequest): ItemPaths | undefined {
  if (
    request.describe === true ||
    request.textSearch !== undefined ||
    request.jsonPath !== undefined ||
    request.objectMode !== undefined ||
    request.sort !== undefined ||
    request.aggregate !== undefined
  ) {
    return undefined;
  }
  const paths: ItemPaths = { fields: [], filtersMustResolve: [], filterPaths: [] };
  try {
    paths.fields = (request.fields ?? []).map(compileField);
    for (const filter of request.filters ?? []) {
      for (const leaf of isAnyOfFilter(filter) ? filter.anyOf : [filter]) {
        const path = compileFilterPath(leaf.path);
        if (leaf.op !== "exists") paths.filtersMustResolve.push(path);
        paths.filterPaths.push({ tokens: path.tokens, filter: true });
      }
    }
  } catch {
    return undefined;
  }
  return paths;
}

/** The context without its view cache: a view of a skeleton is never worth keeping. */
function withoutViewCache(context: QueryContext): QueryContext {
  const { viewCache, ...rest } = context;
  return viewCache === undefined ? context : rest;
}

/** The items of the array as one scan read them, with the page's matched items parsed whole. */
interface ScannedPage {
  items: unknown[];
  /** The indices of the page's items (the matched ones from the cursor's offset on). */
  window: number[];
}

/**
 * One scan of the array reading `tree`'s paths; undefined when the array is not there, the text
 * is not JSON or a filter path resolves on no item (see runFilteredQuery).
 */
function scanPage(
  bytes: Uint8Array,
  tokens: readonly string[],
  tree: ReturnType<typeof pathTreeOf>,
  paths: ItemPaths,
  request: QueryRequest,
  context: QueryContext,
): ScannedPage | undefined {
  let items: unknown[];
  let spans: Float64Array;
  try {
    const scanned = materializeItems(bytes, tokens, tree, true);
    if (scanned === undefined) return undefined;
    ({ items, spans } = scanned);
  } catch {
    return undefined;
  }
  const unresolved = (path: CompiledPath) => !resolvesOnAny(items, null, path);
  if (items.length > 0 && paths.filtersMustResolve.some(unresolved)) return undefined;
  const start = windowStart(request, context);
  const size = request.pageSize ?? context.limits.pageSize;
  const indices =
    request.filters === undefined
      ? null
      : applyFilters(items, compileFilters(request.filters)).indices;
  const total = indices === null ? items.length : indices.length;
  const scanner = new JsonScanner(bytes);
  const window: number[] = [];
  for (let position = start; position < Math.min(start + size, total); position += 1) {
    const index = indices === null ? position : (indices[position] as number);
    items[index] = scanner.parse(spans[2 * index] as number, spans[2 * index + 1] as number);
    window.push(index);
  }
  return { items, window };
}

/**
 * Answers a fields and/or filters request from the bytes: every item is materialized with only
 * the values its filters read, the filters run on those (honest counts over every item), and the
 * page's matched items are parsed whole, so their projection is runQuery's. Fields are not read
 * on the other items when each resolves on a page item (then runQuery's field checks see what
 * they would see on the parsed document); otherwise the array is scanned again with every field
 * marked where it is present (FIELD_PRESENT). Declines when a field or filter path resolves on
 * no item: runQuery's answer then names the items' own keys (errors, suggestions), which the
 * materialized items do not hold.
 */
function runFilteredQuery(
  bytes: Uint8Array,
  tokens: readonly string[],
  paths: ItemPaths,
  request: QueryRequest,
  context: QueryContext,
): QueryOutcome | undefined {
  let page = scanPage(bytes, tokens, pathTreeOf(paths.filterPaths), paths, request, context);
  if (page === undefined) return undefined;
  const onPage = (path: CompiledPath) => resolvesOnAny(page?.items ?? [], page?.window ?? [], path);
  if (!paths.fields.every(onPage)) {
    const all = [
      ...paths.filterPaths,
      ...paths.fields.map((path) => ({ tokens: path.tokens, filter: false })),
    ];
    page = scanPage(bytes, tokens, pathTreeOf(all), paths, request, context);
    if (page === undefined) return undefined;
    const items = page.items;
    if (items.length > 0 && paths.fields.some((path) => !resolvesOnAny(items, null, path))) {
      return undefined;
    }
  }
  return runQuery(skeleton(tokens, page.items), request, withoutViewCache(context));
}

/**
 * Answers a page of an array straight from the stored JSON bytes, without parsing the whole
 * document, for two kinds of request:
 * - a plain page (no fields, filters, objectMode, textSearch, describe or jsonPath): the array is
 *   located and counted by a byte scan, and only the page's window of elements is parsed;
 * - fields and/or filters (every filter op, anyOf, measure) over an array, without describe,
 *   textSearch, jsonPath, objectMode, sort or aggregate: each item is scanned and only the values
 *   the filters read are materialized, the page's items parsed whole (runFilteredQuery).
 * The answer is the one runQuery gives on the fully parsed document (parseJsonExact: same page,
 * counts, cursors, view hash, errors), so a later page of the parsed document continues it.
 * Returns undefined when the request or the document is not of that kind (responsePath does not
 * resolve exactly, ends at a non-array, crosses an array, the artifact is not JSON, a field or
 * filter path resolves on no item): the caller then parses the document and calls runQuery. The
 * request kind is decided before any byte is scanned.
 */
export function runPartialQuery(
  bytes: Uint8Array,
  request: QueryRequest,
  context: QueryContext,
): QueryOutcome | undefined {
  if ((context.mediaType ?? "application/json") !== "application/json") return undefined;
  const tokens = selectionTokens(request, context);
  if (tokens === undefined) return undefined;
  if (!isPlainPageRequest(request)) {
    const paths = itemPathsOf(request);
    return paths === undefined
      ? undefined
      : runFilteredQuery(bytes, tokens, paths, request, context);
  }
  const start = windowStart(request, context);
  const size = request.pageSize ?? context.limits.pageSize;
  let window: ReturnType<typeof locateArrayWindow>;
  try {
    window = locateArrayWindow(bytes, tokens, start, size);
  } catch {
    return undefined;
  }
  if (window === undefined) return undefined;
  return runQuery(
    skeleton(tokens, sparseArray(window.count, start, window.elements)),
    request,
    context,
  );
}
