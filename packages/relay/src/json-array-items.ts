/** The characters that change the nesting of JSON text, or end an item of the outer array. */
const STRUCTURAL = /["[\]{},]/g;

/** The index after the string whose opening quote is at `start`, or -1 when it does not end. */
function afterString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/**
 * The texts of the items of a JSON array (a JSON-RPC batch), each exactly as it stands in `text`
 * (its spacing, number literals and escapes; the whitespace around it trimmed), so each parses to
 * the item JSON.parse makes of the whole. Undefined when `text` is not an array whose strings
 * close and whose outer bracket closes last (nothing after it but whitespace). One linear pass that jumps from one
 * structural character to the next; iterative, so any depth is fine.
 * Limits: it checks structure only (a text JSON.parse refuses may still be split; the items are
 * parsed on their own afterwards); an empty array gives no items.
 */
export function jsonArrayItemTexts(text: string): string[] | undefined {
  const open = text.length - text.trimStart().length;
  if (text.charCodeAt(open) !== 0x5b) return undefined;
  const items: string[] = [];
  let depth = 0;
  let itemStart = open + 1;
  STRUCTURAL.lastIndex = open;
  for (let found = STRUCTURAL.exec(text); found !== null; found = STRUCTURAL.exec(text)) {
    const at = found.index;
    const character = found[0];
    if (character === '"') {
      const end = afterString(text, at);
      if (end < 0) return undefined;
      STRUCTURAL.lastIndex = end;
    } else if (character === "[" || character === "{") {
      depth += 1;
    } else if (character === "]" || character === "}") {
      depth -= 1;
      if (depth > 0) continue;
      if (character !== "]") return undefined;
      const last = text.slice(itemStart, at).trim();
      if (last !== "") items.push(last);
      return text.slice(at + 1).trim() === "" ? items : undefined;
    } else if (depth === 1) {
      items.push(text.slice(itemStart, at).trim());
      itemStart = at + 1;
    }
  }
  return undefined;
}
