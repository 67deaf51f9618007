/** The responseRoot of every text/plain artifact: its lines. */
export const TEXT_RESPONSE_ROOT = "/lines";

/**
 * The document a text/plain payload is queried as (SPEC.md §2): `{"lines": [...]}`, split on
 * "\n" exactly (a "\r" before it stays in the line, an empty last line stays), so pointers and
 * text-search offsets address the stored text without loss.
 */
export function textToDocument(text: string): { lines: string[] } {
  return { lines: text.split("\n") };
}
