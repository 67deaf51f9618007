import { escapePointerToken } from "../pointer/pointer.js";
import type { Work } from "../schedule/work.js";
import { createRecord } from "./json-values.js";

/** Where a text search looks: a value and its absolute pointer. */
export interface SearchRoot {
  pointer: string;
  value: unknown;
}

/**
 * A scan position: UTF-16 code units of every string before it, in the search order (roots in
 * order, depth first in document order), so a position may fall inside one string.
 */
export type ScanPosition = number;

/** Options of one search page. */
export interface SearchOptions {
  query: string;
  caseSensitive: boolean;
  /** Where the scan starts: 0, or the position a resuming cursor carries. */
  resumeAt: ScanPosition;
  /** Matches counted before resumeAt (earlier pages); the count starts there. */
  matchesBefore: number;
  /** Index of the first match to keep (at least matchesBefore). */
  keepFrom: number;
  /** Matches to keep from keepFrom on. */
  count: number;
  /** Characters of context per match. */
  contextChars: number;
  /** Work time after which the scan stops (§9 rule 6 work limit); Infinity for none. */
  workMs: number;
}

/** One page of matches, how many were counted, and where the scan stopped. */
export interface SearchOutcome {
  /** Matches counted: matchesBefore plus every match from resumeAt to where the scan stopped. */
  total: number;
  /** The kept matches, in order. */
  matches: Record<string, unknown>[];
  /** The position right after each kept match (where a next page resumes). */
  ends: ScanPosition[];
  /** False when the work limit stopped the scan before the end. */
  complete: boolean;
  /** Where the scan stopped: the end of every string when complete. */
  position: ScanPosition;
}

/**
 * A long string is searched in windows of this many code units (and any walk yields after about
 * this much work), so one step of a search stays well under a millisecond.
 */
export const SEARCH_WINDOW_CHARS = 65_536;

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

/** The whole state of one scan, so it can stop after a budget of work and go on later. */
interface Scan {
  readonly roots: readonly SearchRoot[];
  readonly pattern: RegExp;
  readonly options: SearchOptions;
  readonly keepTo: number;
  rootIndex: number;
  stack: Frame[];
  /** The position where the next string starts. */
  base: ScanPosition;
  /** A string longer than a window being searched window by window (null: none). */
  text: string | null;
  textFrame: Frame | null;
  textToken: string | number;
  textRoot: string;
  /** Where the next window of `text` starts (a code unit index into it). */
  from: number;
  total: number;
  matches: Record<string, unknown>[];
  ends: ScanPosition[];
}

function createScan(roots: readonly SearchRoot[], options: SearchOptions): Scan {
  return {
    roots,
    pattern: new RegExp(
      options.query.replace(REGEXP_SYNTAX, "\\$&"),
      options.caseSensitive ? "g" : "gi",
    ),
    options,
    keepTo: options.keepFrom + options.count,
    rootIndex: 0,
    stack: [],
    base: 0,
    text: null,
    textFrame: null,
    textToken: "",
    textRoot: "",
    from: 0,
    total: options.matchesBefore,
    matches: [],
    ends: [],
  };
}

/**
 * Counts (and keeps, inside the page) every non-overlapping match that starts in [from, end) of
 * `text`, which starts at `start`; answers where the next search of this string begins.
 */
function searchRange(
  scan: Scan,
  text: string,
  from: number,
  end: number,
  start: ScanPosition,
  frame: Frame | null,
  token: string | number,
  rootPointer: string,
): number {
  const { options, pattern } = scan;
  const whole = end >= text.length;
  if (whole && options.caseSensitive && !text.includes(options.query, from)) return text.length;
  // A window searches a prefix that reaches far enough to see a match starting before `end`.
  const subject = whole
    ? text
    : text.slice(0, Math.min(text.length, end + options.query.length - 1));
  let next = end;
  pattern.lastIndex = from;
  for (let found = pattern.exec(subject); found !== null; found = pattern.exec(subject)) {
    const matchEnd = found.index + found[0].length;
    if (scan.total >= options.keepFrom && scan.total < scan.keepTo) {
      const pointer = frame === null ? rootPointer : pointerAt(frame, token);
      scan.matches.push(
        createMatch(pointer, text, found.index, found[0].length, options.contextChars),
      );
      scan.ends.push(start + matchEnd);
    }
    scan.total += 1;
    if (matchEnd > next) next = matchEnd;
  }
  return next;
}

/** Visits one string: skipped before the resume position, searched whole, or started as windows. */
function visitString(
  scan: Scan,
  text: string,
  frame: Frame | null,
  token: string | number,
  rootPointer: string,
): number {
  const start = scan.base;
  const resumeAt = scan.options.resumeAt;
  if (start + text.length <= resumeAt) {
    scan.base = start + text.length;
    return 1;
  }
  const from = resumeAt > start ? resumeAt - start : 0;
  if (text.length - from <= SEARCH_WINDOW_CHARS) {
    searchRange(scan, text, from, text.length, start, frame, token, rootPointer);
    scan.base = start + text.length;
    return 1 + text.length - from;
  }
  scan.text = text;
  scan.textFrame = frame;
  scan.textToken = token;
  scan.textRoot = rootPointer;
  scan.from = from;
  return 1;
}

/** Searches the next window of the long string in progress. */
function searchWindow(scan: Scan, text: string): number {
  const end = Math.min(text.length, scan.from + SEARCH_WINDOW_CHARS);
  const from = scan.from;
  scan.from = searchRange(
    scan,
    text,
    from,
    end,
    scan.base,
    scan.textFrame,
    scan.textToken,
    scan.textRoot,
  );
  if (scan.from >= text.length) {
    scan.base += text.length;
    scan.text = null;
    scan.textFrame = null;
  }
  return end - from;
}

/** Runs the scan for about `budget` units of work (nodes visited, code units searched); true when done. */
function advance(scan: Scan, budget: number): boolean {
  let units = 0;
  while (units < budget) {
    if (scan.text !== null) {
      units += searchWindow(scan, scan.text);
      continue;
    }
    const stack = scan.stack;
    if (stack.length === 0) {
      const root = scan.roots[scan.rootIndex];
      if (root === undefined) return true;
      scan.rootIndex += 1;
      units += 1;
      if (typeof root.value === "string") {
        units += visitString(scan, root.value, null, "", root.pointer);
      } else if (root.value !== null && typeof root.value === "object") {
        stack.push(createFrame(root.value as Record<string, unknown>, null, root.pointer));
      }
      continue;
    }
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
    units += 1;
    if (typeof child === "string") {
      units += visitString(scan, child, frame, token, "");
    } else if (child !== null && typeof child === "object") {
      stack.push(createFrame(child as Record<string, unknown>, frame, token));
    }
  }
  return false;
}

function positionOf(scan: Scan): ScanPosition {
  return scan.text === null ? scan.base : scan.base + scan.from;
}

function outcomeOf(scan: Scan, complete: boolean): SearchOutcome {
  return {
    total: scan.total,
    matches: scan.matches,
    ends: scan.ends,
    complete,
    position: positionOf(scan),
  };
}

/**
 * textSearch (SPEC.md §4.9, §9 rule 6): every string value under the roots, depth first in
 * document order; each non-overlapping occurrence is a match `{pointer, offset, context,
 * contextStart, contextEnd}` with at most contextChars of context around it. Counts every match
 * from `resumeAt` on (after `matchesBefore`) but keeps only the requested page, and builds a
 * pointer only for a kept match. Iterative, so deep documents cannot overflow the stack. A long
 * string is searched in windows of SEARCH_WINDOW_CHARS, and the work yields after about that much
 * work; once `workMs` of work time have passed (and the scan has moved past resumeAt) it stops
 * and answers `complete: false` with the position it reached.
 */
export function* searchText(
  roots: readonly SearchRoot[],
  options: SearchOptions,
): Work<SearchOutcome> {
  const scan = createScan(roots, options);
  const started = yield;
  while (!advance(scan, SEARCH_WINDOW_CHARS)) {
    const elapsed = yield;
    if (elapsed - started >= options.workMs && positionOf(scan) > options.resumeAt) {
      return outcomeOf(scan, false);
    }
  }
  return outcomeOf(scan, true);
}
