import { jsonBytes } from "../query/json-values.js";
import { keysOf } from "./estimate-bytes.js";

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

const TINY_MARKER_LIMITS: CompactionLimits = { depth: 0, items: 0, keys: 0, chars: 8, nodes: 0 };

/**
 * Compacts a parsed value until its compact JSON fits maxBytes (SPEC.md §2): depth, array
 * items, object keys and string characters are cut down PREVIEW_LADDER, binary-searched for the
 * loosest rung that fits (about four candidates are built and measured, never the document).
 * Omissions are marked in place: `{"_omittedItems": n}` as an array's last item, `"_omittedKeys": n`
 * in an object, `"…[N chars total]"` at the end of a cut string. The result is always valid JSON
 * data built fresh (objects without prototypes, so a `__proto__` key stays data); the same value
 * gives the same result. When not even the last rung fits, the tiny marker of the value is
 * returned (`[{"_omittedItems": n}]`, `{"_omittedKeys": n}`, a string cut to 8 characters), which
 * may still exceed a maxBytes below 64 bytes.
 */
export function compactPreview(value: unknown, maxBytes: number): unknown {
  let fitting: unknown;
  let low = 0;
  let high = PREVIEW_LADDER.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const candidate = compactWithLimits(value, PREVIEW_LADDER[middle]!);
    if (jsonBytes(candidate) <= maxBytes) {
      fitting = candidate;
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return low < PREVIEW_LADDER.length ? fitting : compactWithLimits(value, TINY_MARKER_LIMITS);
}

/** Compacts a value with one rung's limits (exposed so callers can pin a rung in tests). */
export function compactWithLimits(value: unknown, limits: Readonly<CompactionLimits>): unknown {
  const state = { limits, nodesLeft: limits.nodes };
  return compactValue(value, limits.depth, state);
}

interface CompactionState {
  limits: Readonly<CompactionLimits>;
  nodesLeft: number;
}

function compactValue(value: unknown, depthLeft: number, state: CompactionState): unknown {
  switch (typeof value) {
    case "string":
      return cutString(value, state.limits.chars);
    case "number":
      return Number.isFinite(value) ? value : null;
    case "boolean":
      return value;
    case "object":
      if (value === null) return null;
      return Array.isArray(value)
        ? compactArray(value, depthLeft, state)
        : compactObject(value as Record<string, unknown>, depthLeft, state);
    default:
      return null;
  }
}

function compactArray(items: readonly unknown[], depthLeft: number, state: CompactionState) {
  const output: unknown[] = [];
  if (depthLeft > 0) {
    const end = Math.min(items.length, state.limits.items);
    for (let index = 0; index < end && state.nodesLeft > 0; index++) {
      state.nodesLeft--;
      output.push(compactValue(items[index], depthLeft - 1, state));
    }
  }
  if (output.length < items.length)
    output.push(marker("_omittedItems", items.length - output.length));
  return output;
}

function compactObject(
  record: Record<string, unknown>,
  depthLeft: number,
  state: CompactionState,
): Record<string, unknown> {
  const keys = keysOf(record);
  const output: Record<string, unknown> = Object.create(null);
  let kept = 0;
  if (depthLeft > 0) {
    const end = Math.min(keys.length, state.limits.keys);
    for (let index = 0; index < end && state.nodesLeft > 0; index++) {
      const key = cutString(keys[index]!, state.limits.chars);
      if (Object.hasOwn(output, key)) continue;
      state.nodesLeft--;
      output[key] = compactValue(record[keys[index]!], depthLeft - 1, state);
      kept++;
    }
  }
  if (kept < keys.length) output["_omittedKeys"] = keys.length - kept;
  return output;
}

function marker(name: string, count: number): Record<string, number> {
  const output: Record<string, number> = Object.create(null);
  output[name] = count;
  return output;
}

/** Cuts a string to `chars` UTF-16 units (never inside a surrogate pair) and marks the cut. */
function cutString(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = chars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…[${text.length} chars total]`;
}
