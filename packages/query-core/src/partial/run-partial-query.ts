import type { QueryRequest } from "@bounded-mcp/contract";
import { decodeCursor } from "../cursor/cursor-codec.js";
import { parsePointer } from "../pointer/pointer.js";
import type { QueryContext } from "../query/query-context.js";
import { isPlainPageRequest, type QueryOutcome, runQuery } from "../query/run-query.js";
import { computeViewHash } from "../query/view-hash.js";
import { locateArrayWindow } from "./locate-array.js";

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

/**
 * Answers a plain page request (no fields, filters, objectMode, textSearch, describe or jsonPath)
 * of an array straight from the stored JSON bytes, without parsing the whole document: the array
 * is located and counted by a byte scan, and only the page's window of elements is parsed. The
 * answer is the one runQuery gives on the fully parsed document (same page, counts, cursors,
 * errors). Returns undefined when the request or the document is not of that kind (responsePath
 * does not resolve exactly, ends at a non-array, crosses an array, the artifact is not JSON):
 * the caller then parses the document and calls runQuery.
 */
export function runPartialQuery(
  bytes: Uint8Array,
  request: QueryRequest,
  context: QueryContext,
): QueryOutcome | undefined {
  if ((context.mediaType ?? "application/json") !== "application/json") return undefined;
  if (!isPlainPageRequest(request)) return undefined;
  const pointer = request.responsePath ?? context.responseRoot;
  if (pointer !== "" && !pointer.startsWith("/")) return undefined;
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return undefined;
  }
  // A token that could be an array index is left to the full parse: the skeleton is objects only.
  if (tokens.some((token) => ARRAY_INDEX.test(token))) return undefined;
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
