/**
 * The markers n8n previews write so a model never takes a preview value for the full value. The
 * generic compaction adds its own (`{"_omittedItems": n}` as an array's last item,
 * `"_omittedKeys": n`, `"…[N chars total]"` at the end of a cut string); these say what a
 * previewer itself reshaped. Limits: a marker explains, it does not restore anything; the full
 * value is always in the artifact.
 */

/** Key of an object naming each reshaped key of its parent and what it holds instead. */
export const SUMMARIZED_KEY = "_summarized";

/** The generic compaction's marker of an array's dropped items, reused for a previewer's own cuts. */
export const OMITTED_ITEMS_KEY = "_omittedItems";

/** The generic compaction's marker text of a cut string, reused for a previewer's own cuts. */
export function cutText(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = chars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…[${text.length} chars total]`;
}

/**
 * What an n8n preview aims at: 2 KiB of compact JSON, so that with the envelope's own ~1 KiB
 * (artifact reference, guidance) a bounded envelope is about 3 KiB. A previewer lists its
 * collections within what is left after its fixed parts and marks the rest; the adapter still
 * compacts to previewBytes, so a preview larger than this (a node with hundreds of operations)
 * is cut there, marked the same way.
 */
export const N8N_PREVIEW_BYTES = 2048;

/** Compact JSON bytes of a value. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "null");
}

/** Room kept for an omission marker (`{"_omittedItems":123456}` and its comma). */
const MARKER_BYTES = 28;

/** Options of {@link listWithin}. */
export interface ListWithinOptions {
  /** At most this many items are listed. */
  limit?: number;
  /** How many items there are in all, when `items` holds only the first ones. */
  total?: number;
}

/**
 * Items, in order, while their compact JSON fits `budget` bytes, then `{"_omittedItems": n}` for
 * the rest (of `total`). An item that does not fit ends the list, so the listed ones are always
 * the first ones.
 */
export function listWithin(
  items: readonly unknown[],
  budget: number,
  options: ListWithinOptions = {},
): unknown[] {
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const total = Math.max(options.total ?? items.length, items.length);
  const listed: unknown[] = [];
  let used = 2;
  for (const item of items) {
    const bytes = jsonBytes(item) + 1;
    const reserve = listed.length + 1 < total ? MARKER_BYTES : 0;
    if (listed.length >= limit || used + bytes + reserve > budget) break;
    listed.push(item);
    used += bytes;
  }
  const left = total - listed.length;
  if (left > 0) listed.push({ [OMITTED_ITEMS_KEY]: left });
  return listed;
}

/** The generic compaction's marker of an object's dropped keys, reused for a previewer's own. */
export const OMITTED_KEYS_KEY = "_omittedKeys";

/**
 * Entries, in order, while the compact JSON of the object fits `budget` bytes, then
 * `"_omittedKeys": n` for the entries left out (each listed entry is whole).
 */
export function entriesWithin(
  entries: readonly (readonly [string, unknown])[],
  budget: number,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  let used = 2;
  let count = 0;
  for (const [key, value] of entries) {
    const bytes = jsonBytes(key) + 1 + jsonBytes(value) + 1;
    const reserve = count + 1 < entries.length ? MARKER_BYTES : 0;
    if (used + bytes + reserve > budget) break;
    kept[key] = value;
    used += bytes;
    count++;
  }
  if (count < entries.length) kept[OMITTED_KEYS_KEY] = entries.length - count;
  return kept;
}
