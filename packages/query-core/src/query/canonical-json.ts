import { canonicalExact, isExactNumber } from "../exact/exact-number.js";

/** The text of a value that is not an array nor an object, else undefined. */
function scalarText(value: unknown): string | undefined {
  if (isExactNumber(value)) return canonicalExact(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  return undefined;
}

/** An array or object being written: its members, and how far the writing got. */
interface Frame {
  value: Record<string, unknown> | readonly unknown[];
  /** The object's keys in canonical order; undefined for an array. */
  keys: string[] | undefined;
  index: number;
  written: number;
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
  const scalar = scalarText(value);
  if (scalar !== undefined) return scalar;
  const stack: Frame[] = [];
  let out = "";
  let next: unknown = value;
  for (;;) {
    const text = scalarText(next);
    if (text !== undefined) out += text;
    else if (Array.isArray(next)) {
      out += "[";
      stack.push({ value: next, keys: undefined, index: 0, written: 0 });
    } else {
      const record = next as Record<string, unknown>;
      out += "{";
      stack.push({ value: record, keys: Object.keys(record).sort(), index: 0, written: 0 });
    }
    let found = false;
    while (!found && stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.keys === undefined) {
        const array = frame.value as readonly unknown[];
        if (frame.index < array.length) {
          if (frame.index > 0) out += ",";
          next = array[frame.index];
          frame.index += 1;
          found = true;
        } else {
          out += "]";
          stack.pop();
        }
        continue;
      }
      const record = frame.value as Record<string, unknown>;
      while (frame.index < frame.keys.length) {
        const key = frame.keys[frame.index] as string;
        frame.index += 1;
        const member = record[key];
        if (member === undefined) continue;
        if (frame.written > 0) out += ",";
        frame.written += 1;
        out += `${JSON.stringify(key)}:`;
        next = member;
        found = true;
        break;
      }
      if (!found) {
        out += "}";
        stack.pop();
      }
    }
    if (!found) return out;
  }
}
