import { isInexactLiteral, mayHoldInexactNumbers } from "./detect.js";
import { ExactNumber } from "./exact-number.js";

/** JSON strings (skipped whole) and number tokens, in text order. */
const TOKENS = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;
/** Runs of escaped NULs: no parsed string holds more NULs in a row than the longest run. */
const NUL_RUNS = /(?:\\u0000)+/g;

interface Found {
  start: number;
  end: number;
}

function inexactTokens(text: string): Found[] {
  const found: Found[] = [];
  TOKENS.lastIndex = 0;
  for (let match = TOKENS.exec(text); match !== null; match = TOKENS.exec(text)) {
    const token = match[0];
    if (token.charCodeAt(0) === 34) continue; // a string
    if (isInexactLiteral(token))
      found.push({ start: match.index, end: match.index + token.length });
  }
  return found;
}

function longestNulRun(text: string): number {
  let longest = 0;
  NUL_RUNS.lastIndex = 0;
  for (let match = NUL_RUNS.exec(text); match !== null; match = NUL_RUNS.exec(text)) {
    longest = Math.max(longest, match[0].length / 6);
  }
  return longest;
}

/** Replaces each sentinel string of the parsed tree by its ExactNumber; stops once all are found. */
function swapSentinels(root: unknown, prefix: string, literals: readonly string[]): unknown {
  const isSentinel = (value: unknown): value is string =>
    typeof value === "string" && value.startsWith(prefix);
  const toExact = (sentinel: string) =>
    new ExactNumber(literals[Number(sentinel.slice(prefix.length))] as string);
  if (isSentinel(root)) return toExact(root);
  let left = literals.length;
  const stack: unknown[] = [root];
  while (stack.length > 0 && left > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        const child = node[index];
        if (isSentinel(child)) {
          node[index] = toExact(child);
          left -= 1;
        } else if (typeof child === "object" && child !== null) stack.push(child);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (isSentinel(child)) {
        record[key] = toExact(child);
        left -= 1;
      } else if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
  return root;
}

/**
 * JSON.parse that keeps inexact number literals (SPEC.md §10): each becomes an ExactNumber holding
 * the literal as written, every other value is what JSON.parse gives. A text without a candidate
 * (mayHoldInexactNumbers) is plain JSON.parse, so ordinary payloads pay one regex test. Otherwise
 * the text is scanned once for number tokens outside strings; the inexact ones are replaced by
 * sentinel strings that no string of the document can equal (more escaped NULs in a row than the
 * text holds), parsed, and the sentinels swapped back. Throws what JSON.parse throws for invalid
 * JSON. Limits: the scan and the swap walk cost about one more parse, only for texts with
 * candidates; a `__proto__` key is kept as JSON.parse keeps it (an own property).
 */
export function parseJsonExact(text: string): unknown {
  if (!mayHoldInexactNumbers(text)) return JSON.parse(text);
  return parseJsonExactScanned(text);
}

/**
 * parseJsonExact without its candidate test, for a caller that already knows the text holds a
 * candidate (the adapter records the bounder's verdict with a stored body): the same document,
 * one regex test less. Limits: on a text without a candidate it still scans, so it is slower than
 * parseJsonExact there, never wrong.
 */
export function parseJsonExactScanned(text: string): unknown {
  const found = inexactTokens(text);
  if (found.length === 0) return JSON.parse(text);
  const escapedPrefix = "\\u0000".repeat(longestNulRun(text) + 1);
  const prefix = "\u0000".repeat(longestNulRun(text) + 1);
  const parts: string[] = [];
  const literals: string[] = [];
  let at = 0;
  for (const token of found) {
    parts.push(text.slice(at, token.start), `"${escapedPrefix}${literals.length}"`);
    literals.push(text.slice(token.start, token.end));
    at = token.end;
  }
  parts.push(text.slice(at));
  let parsed: unknown;
  try {
    parsed = JSON.parse(parts.join(""));
  } catch {
    // The scan is lenient where JSON is not: report the text's own error.
    return JSON.parse(text);
  }
  return swapSentinels(parsed, prefix, literals);
}
