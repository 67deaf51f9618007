/**
 * The markers n8n previews write so a model never takes a preview value for the full value. The
 * generic compaction adds its own (`{"_omittedItems": n}` as an array's last item,
 * `"_omittedKeys": n`, `"…[N chars total]"` at the end of a cut string); these say what a
 * previewer itself reshaped. Limits: a marker explains, it does not restore anything; the full
 * value is always in the artifact.
 */

/** Key of an object naming each reshaped key of its parent and what it holds instead. */
export const SUMMARIZED_KEY = "_summarized";

/** Key of an object naming each list of a preview that holds every distinct value once. */
export const DEDUPLICATED_KEY = "_deduplicated";

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
 * The first `limit` items, each mapped, followed by `{"_omittedItems": n}` when items were left
 * out, so a shortened list says so in place, as the generic compaction's lists do.
 */
export function listFirst<T>(
  items: readonly T[],
  limit: number,
  map: (item: T) => unknown,
): unknown[] {
  const listed: unknown[] = items.slice(0, limit).map(map);
  if (items.length > limit) listed.push({ [OMITTED_ITEMS_KEY]: items.length - limit });
  return listed;
}
