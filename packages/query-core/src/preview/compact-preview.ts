import { isExactNumber } from "../exact/exact-number.js";
import { jsonBytes } from "../query/json-values.js";
import { keysOf } from "./estimate-bytes.js";
import {
  CUT_TOTAL,
  cutText,
  isCutText,
  OMITTED_ITEMS_KEY,
  OMITTED_KEYS_KEY,
  PREVIEW_MARKER_KEYS,
} from "./preview-markers.js";

/** One rung of the preview ladder: how much of a value a compaction keeps. */
export interface CompactionLimits {
  /** Container levels kept; a container below them becomes its omission marker. */
  depth: number;
  /** Array items kept per array. */
  items: number;
  /** Keys kept per object. */
  keys: number;
  /** Characters kept per string (and per key). */
  chars: number;
  /** Values kept in all, depth first: caps the work and the size of one candidate. */
  nodes: number;
}

/**
 * The ladder of SPEC.md §2, loosest first. Each rung caps the candidate's size, so measuring
 * a candidate never serializes more than a few hundred KiB whatever the document's size.
 */
export const PREVIEW_LADDER: readonly Readonly<CompactionLimits>[] = Object.freeze([
  { depth: 12, items: 100, keys: 200, chars: 1000, nodes: 2000 },
  { depth: 8, items: 30, keys: 60, chars: 500, nodes: 1000 },
  { depth: 8, items: 20, keys: 40, chars: 300, nodes: 600 },
  { depth: 6, items: 12, keys: 30, chars: 200, nodes: 400 },
  { depth: 6, items: 8, keys: 24, chars: 140, nodes: 260 },
  { depth: 5, items: 6, keys: 18, chars: 100, nodes: 170 },
  { depth: 5, items: 4, keys: 14, chars: 72, nodes: 110 },
  { depth: 4, items: 3, keys: 10, chars: 52, nodes: 72 },
  { depth: 4, items: 2, keys: 8, chars: 40, nodes: 48 },
  { depth: 3, items: 2, keys: 6, chars: 32, nodes: 32 },
  { depth: 3, items: 1, keys: 4, chars: 24, nodes: 20 },
  { depth: 2, items: 1, keys: 3, chars: 16, nodes: 10 },
  { depth: 1, items: 1, keys: 2, chars: 12, nodes: 4 },
]);

/**
 * The ladder of a bounded envelope's preview: a sample, not as much as fits. Its loosest rung
 * already shows only 2 items per array (with every key of an item, up to 30), because a model
 * reads the items' shape and a few values from a preview and queries the artifact for the rest;
 * a fuller preview costs tokens on every call and answers nothing the query tool cannot.
 */
export const SAMPLE_LADDER: readonly Readonly<CompactionLimits>[] = Object.freeze([
  { depth: 6, items: 2, keys: 30, chars: 100, nodes: 160 },
  { depth: 5, items: 2, keys: 24, chars: 72, nodes: 110 },
  { depth: 4, items: 2, keys: 18, chars: 60, nodes: 80 },
  { depth: 4, items: 1, keys: 14, chars: 48, nodes: 60 },
  { depth: 3, items: 1, keys: 10, chars: 40, nodes: 40 },
  { depth: 3, items: 1, keys: 8, chars: 32, nodes: 28 },
  { depth: 2, items: 1, keys: 6, chars: 24, nodes: 16 },
  { depth: 2, items: 1, keys: 4, chars: 16, nodes: 10 },
  { depth: 1, items: 1, keys: 3, chars: 12, nodes: 4 },
]);

const TINY_MARKER_LIMITS: CompactionLimits = { depth: 0, items: 0, keys: 0, chars: 8, nodes: 0 };

/**
 * Compacts a parsed value until its compact JSON fits maxBytes (SPEC.md §2): depth, array
 * items, object keys and string characters are cut down PREVIEW_LADDER, binary-searched for the
 * loosest rung that fits (about four candidates are built and measured, never the document).
 * Omissions are marked in place: `{"_omittedItems": n}` as an array's last item, `"_omittedKeys": n`
 * in an object, `"…[N chars total]"` at the end of a cut string or key. Every value that differs
 * from the document's value at its path is marked so, or is a marker: a document key named like a
 * marker (`_omittedItems`, `_omittedKeys`, `_deduplicated`) is never copied (it counts in
 * `_omittedKeys`), and a document string that already ends like a cut is shown cut, so a marker
 * always means a cut. `options.ladder` (default PREVIEW_LADDER) is searched instead when given,
 * for example SAMPLE_LADDER; `options.marked` reads the value as a preview whose markers are
 * merged with the new cuts (see CompactPreviewOptions). The result is always valid JSON
 * data built fresh (objects without prototypes, so a `__proto__` key stays data); the same value
 * gives the same result. When not even the last rung fits, the tiny marker of the value is
 * returned (`[{"_omittedItems": n}]`, `{"_omittedKeys": n}`, a string cut to 8 characters), which
 * may still exceed a maxBytes below 64 bytes.
 */
export function compactPreview(
  value: unknown,
  maxBytes: number,
  options: CompactPreviewOptions = {},
): unknown {
  const ladder = options.ladder ?? PREVIEW_LADDER;
  const marked = options.marked ?? false;
  let fitting: unknown;
  let low = 0;
  let high = ladder.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const candidate = compactWithLimits(value, ladder[middle]!, marked);
    if (jsonBytes(candidate) <= maxBytes) {
      fitting = candidate;
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low < ladder.length ? fitting : compactWithLimits(value, TINY_MARKER_LIMITS, marked);
}

/** How compactPreview reads its value. */
export interface CompactPreviewOptions {
  /** The rungs to search, loosest first; default PREVIEW_LADDER. */
  ladder?: readonly Readonly<CompactionLimits>[];
  /**
   * The value is itself a preview (a hook's reshaped value) whose markers are markers, not data:
   * a trailing `{"_omittedItems": n}` and an object's numeric `"_omittedKeys": n` are added to
   * what this compaction leaves out, a cut string keeps its original `N chars total`, and other
   * marker keys (`_deduplicated`) are kept as the counts they are. Default false: the value is a
   * document, and keys named like markers are data that is never copied.
   */
  marked?: boolean;
}

/** Compacts a value with one rung's limits (exposed so callers can pin a rung in tests). */
export function compactWithLimits(
  value: unknown,
  limits: Readonly<CompactionLimits>,
  marked = false,
): unknown {
  const state = { limits, nodesLeft: limits.nodes, marked };
  return compactValue(value, limits.depth, state);
}

interface CompactionState {
  limits: Readonly<CompactionLimits>;
  nodesLeft: number;
  marked: boolean;
}

function compactValue(value: unknown, depthLeft: number, state: CompactionState): unknown {
  switch (typeof value) {
    case "string":
      return state.marked
        ? cutMarkedString(value, state.limits.chars)
        : cutString(value, state.limits.chars);
    case "number":
      return Number.isFinite(value) ? value : null;
    case "boolean":
      return value;
    case "object":
      if (value === null) return null;
      // An ExactNumber is a number: kept whole, written as its literal (SPEC.md §10).
      if (isExactNumber(value)) return value;
      return Array.isArray(value)
        ? compactArray(value, depthLeft, state)
        : compactObject(value as Record<string, unknown>, depthLeft, state);
    default:
      return null;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** The count of an `{"_omittedItems": n}` marker, or null for any other value. */
function itemsMarkerCount(value: unknown): number | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const count = (value as Record<string, unknown>)[OMITTED_ITEMS_KEY];
  return keys.length === 1 && keys[0] === OMITTED_ITEMS_KEY && isCount(count) ? count : null;
}

function compactArray(items: readonly unknown[], depthLeft: number, state: CompactionState) {
  const output: unknown[] = [];
  // In a marked value a trailing marker stands for items left out before: not an item.
  const earlier = state.marked && items.length > 0 ? itemsMarkerCount(items.at(-1)) : null;
  const length = earlier === null ? items.length : items.length - 1;
  if (depthLeft > 0) {
    const end = Math.min(length, state.limits.items);
    for (let index = 0; index < end && state.nodesLeft > 0; index++) {
      state.nodesLeft--;
      output.push(compactValue(items[index], depthLeft - 1, state));
    }
  }
  const omitted = length - output.length + (earlier ?? 0);
  if (omitted > 0) output.push(marker(OMITTED_ITEMS_KEY, omitted));
  return output;
}

function compactObject(
  record: Record<string, unknown>,
  depthLeft: number,
  state: CompactionState,
): Record<string, unknown> {
  const keys = keysOf(record);
  const output: Record<string, unknown> = Object.create(null);
  const earlier =
    state.marked && isCount(record[OMITTED_KEYS_KEY]) && Object.hasOwn(record, OMITTED_KEYS_KEY)
      ? (record[OMITTED_KEYS_KEY] as number)
      : null;
  const own = earlier === null ? keys.length : keys.length - 1;
  let kept = 0;
  if (depthLeft > 0) {
    const end = Math.min(keys.length, state.limits.keys + (earlier === null ? 0 : 1));
    for (let index = 0; index < end && state.nodesLeft > 0; index++) {
      const name = keys[index]!;
      if (earlier !== null && name === OMITTED_KEYS_KEY) continue;
      if (!state.marked && PREVIEW_MARKER_KEYS.includes(name)) continue;
      const key = state.marked
        ? cutMarkedString(name, state.limits.chars)
        : cutString(name, state.limits.chars);
      if (Object.hasOwn(output, key)) continue;
      state.nodesLeft--;
      output[key] = compactValue(record[name], depthLeft - 1, state);
      kept++;
    }
  }
  const omitted = own - kept + (earlier ?? 0);
  if (omitted > 0) output[OMITTED_KEYS_KEY] = omitted;
  return output;
}

function marker(name: string, count: number): Record<string, number> {
  const output: Record<string, number> = Object.create(null);
  output[name] = count;
  return output;
}

/**
 * A string of a marked value: a string the value already cut keeps its original total when cut
 * further (`"abc…[400 chars total]"` at 2 characters is `"ab…[400 chars total]"`); any other
 * string is cut as usual.
 */
function cutMarkedString(text: string, chars: number): string {
  const match = CUT_TOTAL.exec(text);
  if (match === null) return text.length <= chars ? text : cutText(text, chars);
  const prefix = text.slice(0, match.index);
  if (prefix.length <= chars) return text;
  return cutText(prefix, chars).replace(CUT_TOTAL, `…[${match[1]} chars total]`);
}

/**
 * A string as the preview shows it: whole when it fits and does not itself end like a cut, else
 * cut to `chars` (or one character short of whole) and marked.
 */
function cutString(text: string, chars: number): string {
  if (text.length <= chars && !isCutText(text)) return text;
  return cutText(text, Math.min(chars, text.length - 1));
}
