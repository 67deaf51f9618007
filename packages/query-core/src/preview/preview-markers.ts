import { isJsonObject } from "../query/json-values.js";
import { keysOf } from "./estimate-bytes.js";

/** The marker an array's last item becomes when items were left out: `{"_omittedItems": n}`. */
export const OMITTED_ITEMS_KEY = "_omittedItems";
/** The key an object gains when keys were left out: `"_omittedKeys": n`. */
export const OMITTED_KEYS_KEY = "_omittedKeys";
/** The key a reshaped preview adds where it dropped repeated values: `"_deduplicated": n`. */
export const DEDUPLICATED_KEY = "_deduplicated";

/**
 * Keys a preview reserves for its markers. A document key of one of these names is never copied
 * into a preview, so a model can take every such key for a marker. A reshaping preview (an app's
 * hook) that adds counts of its own uses these names, or names that say what they count
 * (`nodeCount`), never a bare copy of a shortened value.
 */
export const PREVIEW_MARKER_KEYS: readonly string[] = Object.freeze([
  OMITTED_ITEMS_KEY,
  OMITTED_KEYS_KEY,
  DEDUPLICATED_KEY,
]);

/** The mark at the end of a cut string or key (`…[N chars total]`), N captured. */
export const CUT_TOTAL = /…\[(\d+) chars total\]$/;

/** Whether a string ends like a cut string or key of a preview (`…[N chars total]`). */
export function isCutText(text: string): boolean {
  return CUT_TOTAL.test(text);
}

/** Whether a value is an `{"_omittedItems": n}` marker: one key, that one. */
export function isItemsMarker(value: unknown): boolean {
  return (
    isJsonObject(value) && keysOf(value).length === 1 && Object.hasOwn(value, OMITTED_ITEMS_KEY)
  );
}

/**
 * The first `chars` UTF-16 units of `text` (one fewer when that would split a surrogate pair),
 * marked `…[N chars total]` with N the whole length, so the model knows it was cut and by how
 * much. Every string or key a preview shortens is written with it.
 */
export function cutText(text: string, chars: number): string {
  let end = Math.max(0, chars);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…[${text.length} chars total]`;
}
