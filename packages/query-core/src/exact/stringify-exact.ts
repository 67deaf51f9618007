import { escapePointerToken } from "../pointer/pointer.js";
import { collectExact, type ExactNumber, exactLiteral, isExactNumber } from "./exact-number.js";

/** The serialization of an answer: its text (literals as written) and where it differs from JSON. */
export interface ExactText {
  /** JSON text with every ExactNumber written as its literal. */
  text: string;
  /** How many ExactNumbers the text writes. */
  count: number;
}

/**
 * JSON.stringify with every ExactNumber written as its literal (SPEC.md §10). A value without
 * ExactNumbers costs one JSON.stringify (the ExactNumber's toJSON is what notices them). With
 * them, each is written as a sentinel string and swapped for its literal in the text; a document
 * string equal to a sentinel is detected by the count and the sentinel made longer. Throws what
 * JSON.stringify throws (RangeError when nested too deep); returns undefined for undefined.
 */
export function stringifyExact(value: unknown): ExactText | undefined {
  for (let width = 1; ; width += 1) {
    const prefix = `${"\u0000".repeat(width)}\u0002`;
    const { made, met } = collectExact(prefix, () => JSON.stringify(value));
    if (made === undefined) return undefined;
    if (met.length === 0) return { text: made, count: 0 };
    const pattern = new RegExp(`"${"\\\\u0000".repeat(width)}\\\\u0002(\\d+)\\\\u0001"`, "g");
    let swapped = 0;
    const text = made.replace(pattern, (_whole, index: string) => {
      swapped += 1;
      const exact = met[Number(index)];
      return exact === undefined ? _whole : exactLiteral(exact);
    });
    if (swapped === met.length) return { text, count: met.length };
  }
}

/** Where ExactNumbers sit in a value: up to `limit` JSON pointers (document order) and the total. */
export interface InexactNumbers {
  pointers: string[];
  total: number;
}

/**
 * The pointers (relative to `value`) of the ExactNumbers in it, the first `limit` of them in
 * document order, and how many there are (responseMeta.inexactNumbers, SPEC.md §10). Iterative.
 */
export function findInexactNumbers(value: unknown, limit = 20): InexactNumbers {
  const pointers: string[] = [];
  let total = 0;
  const stack: Array<{ node: unknown; pointer: string }> = [{ node: value, pointer: "" }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop() as { node: unknown; pointer: string };
    if (isExactNumber(node)) {
      total += 1;
      if (pointers.length < limit) pointers.push(pointer);
      continue;
    }
    if (typeof node !== "object" || node === null) continue;
    const children: Array<{ node: unknown; pointer: string }> = [];
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        if (typeof child === "object" && child !== null) {
          children.push({ node: child, pointer: `${pointer}/${index}` });
        }
      });
    } else {
      for (const key of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[key];
        if (typeof child === "object" && child !== null) {
          children.push({ node: child, pointer: `${pointer}/${escapePointerToken(key)}` });
        }
      }
    }
    for (let index = children.length - 1; index >= 0; index -= 1)
      stack.push(children[index] as never);
  }
  return { pointers, total };
}

export type { ExactNumber };
