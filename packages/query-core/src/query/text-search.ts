import { escapePointerToken } from "../pointer/pointer.js";
import { createRecord } from "./json-values.js";

/** Where a text search looks: a value and its absolute pointer. */
export interface SearchRoot {
  pointer: string;
  value: unknown;
}

/** One page of matches and the honest total over the whole selection. */
export interface SearchOutcome {
  total: number;
  matches: Record<string, unknown>[];
}

/** Options of one search page. */
export interface SearchOptions {
  query: string;
  caseSensitive: boolean;
  /** Index of the first match to keep. */
  offset: number;
  /** Matches to keep from offset on. */
  count: number;
  /** Characters of context per match. */
  contextChars: number;
}

const REGEXP_SYNTAX = /[.*+?^${}()|[\]\\]/g;

function isHighSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

function createMatch(
  pointer: string,
  text: string,
  offset: number,
  length: number,
  contextChars: number,
): Record<string, unknown> {
  let start: number;
  let end: number;
  if (length >= contextChars) {
    start = offset;
    end = Math.min(text.length, offset + contextChars);
  } else {
    start = Math.max(0, offset - Math.floor((contextChars - length) / 2));
    end = Math.min(text.length, start + contextChars);
    start = Math.max(0, end - contextChars);
  }
  // Never cut a surrogate pair: the context shrinks by one code unit at a split edge.
  if (start < offset && isLowSurrogate(text, start) && isHighSurrogate(text, start - 1)) start += 1;
  if (end - 1 > start && isHighSurrogate(text, end - 1) && isLowSurrogate(text, end)) end -= 1;
  const match = createRecord();
  match.pointer = pointer;
  match.offset = offset;
  match.context = text.slice(start, end);
  match.contextStart = start;
  match.contextEnd = end;
  return match;
}

/** A container being walked; leaves are visited in place, so only containers allocate. */
interface Frame {
  value: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  length: number;
  next: number;
  parent: Frame | null;
  /** The token below the parent, or the root's whole pointer when parent is null. */
  token: string | number;
}

function createFrame(
  value: unknown[] | Record<string, unknown>,
  parent: Frame | null,
  token: string | number,
): Frame {
  const keys = Array.isArray(value) ? null : Object.keys(value);
  return {
    value,
    keys,
    length: keys === null ? (value as unknown[]).length : keys.length,
    next: 0,
    parent,
    token,
  };
}

/** The absolute pointer of a frame's child, built only when a match needs it. */
function pointerAt(frame: Frame, token: string | number): string {
  const tokens: (string | number)[] = [token];
  let current: Frame = frame;
  while (current.parent !== null) {
    tokens.push(current.token);
    current = current.parent;
  }
  let pointer = current.token as string;
  for (let index = tokens.length - 1; index >= 0; index -= 1) {
    const part = tokens[index] as string | number;
    pointer += `/${typeof part === "number" ? part : escapePointerToken(part)}`;
  }
  return pointer;
}

/**
 * textSearch (CONTRACT-v3 §4.9): every string value under the roots, depth first in document
 * order; each non-overlapping occurrence is a match `{pointer, offset, context, contextStart,
 * contextEnd}` with at most contextChars of context around it. Counts every match (honest total)
 * but keeps only the requested page, and builds a pointer only for a kept match. Iterative, so
 * deep documents cannot overflow the stack.
 */
export function searchText(roots: readonly SearchRoot[], options: SearchOptions): SearchOutcome {
  const pattern = new RegExp(
    options.query.replace(REGEXP_SYNTAX, "\\$&"),
    options.caseSensitive ? "g" : "gi",
  );
  const matches: Record<string, unknown>[] = [];
  const last = options.offset + options.count;
  let total = 0;
  const visit = (
    text: string,
    frame: Frame | null,
    token: string | number,
    rootPointer: string,
  ) => {
    if (options.caseSensitive && !text.includes(options.query)) return;
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
      if (total >= options.offset && total < last) {
        const pointer = frame === null ? rootPointer : pointerAt(frame, token);
        matches.push(
          createMatch(pointer, text, found.index, found[0].length, options.contextChars),
        );
      }
      total += 1;
    }
  };
  for (const root of roots) {
    if (typeof root.value === "string") visit(root.value, null, "", root.pointer);
    if (root.value === null || typeof root.value !== "object") continue;
    const stack: Frame[] = [createFrame(root.value as Record<string, unknown>, null, root.pointer)];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.next >= frame.length) {
        stack.pop();
        continue;
      }
      const position = frame.next;
      frame.next += 1;
      const token = frame.keys === null ? position : (frame.keys[position] as string);
      const child =
        frame.keys === null
          ? (frame.value as unknown[])[position]
          : (frame.value as Record<string, unknown>)[token];
      if (typeof child === "string") {
        visit(child, frame, token, root.pointer);
      } else if (child !== null && typeof child === "object") {
        stack.push(createFrame(child as Record<string, unknown>, frame, token));
      }
    }
  }
  return { total, matches };
}
