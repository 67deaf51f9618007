import { canonicalExact, isExactNumber } from "../exact/exact-number.js";

/** The text of a value that is not an array nor an object, else undefined. */
function scalarText(value: unknown): string | undefined {
  if (isExactNumber(value)) return canonicalExact(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  return undefined;
}

/** An array or object being written: its members (an object's keys in canonical order). */
interface Frame {
  value: Record<string, unknown> | readonly unknown[];
  /** The object's keys of defined members, sorted; undefined for an array. */
  keys: string[] | undefined;
  /** How many members: the array's length or the keys'. */
  length: number;
  index: number;
}

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, undefined members left
 * out. Deep-equal JSON values (key order aside) have the same text, so it keys groups, distinct
 * sets and the order of arrays and objects (SPEC.md §9 rule 2), and it hashes cursor views.
 * An ExactNumber is written by its exact value (canonicalExact), so `-0` and `0` key one group
 * and 12345678901234567890 and 12345678901234567889 two (SPEC.md §10).
 * Written with a stack of its own, not by recursion: V8's JSON.parse accepts values nested far
 * deeper than the call stack allows (an upstream's `[[[...]]]` of 5,000 levels is 10 KB).
 */
export function canonicalJson(value: unknown): string {
  const stack: Frame[] = [];
  let out = "";
  let next: unknown = value;
  for (;;) {
    const text = scalarText(next);
    if (text !== undefined) out += text;
    else if (Array.isArray(next)) {
      out += "[";
      stack.push({ value: next, keys: undefined, length: next.length, index: 0 });
    } else {
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined);
      out += "{";
      stack.push({ value: record, keys, length: keys.length, index: 0 });
    }
    // The next member to write, closing what is written out on the way.
    let frame = stack[stack.length - 1];
    while (frame !== undefined && frame.index >= frame.length) {
      out += frame.keys === undefined ? "]" : "}";
      stack.pop();
      frame = stack[stack.length - 1];
    }
    if (frame === undefined) return out;
    if (frame.index > 0) out += ",";
    if (frame.keys === undefined) next = (frame.value as readonly unknown[])[frame.index];
    else {
      const key = frame.keys[frame.index] as string;
      out += `${JSON.stringify(key)}:`;
      next = (frame.value as Record<string, unknown>)[key];
    }
    frame.index += 1;
  }
}
