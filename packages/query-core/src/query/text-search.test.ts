import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runToEnd } from "../schedule/work.js";
import {
  SEARCH_WINDOW_CHARS,
  type SearchOptions,
  type SearchRoot,
  searchText,
} from "./text-search.js";

const OPTIONS: SearchOptions = {
  query: "needle",
  caseSensitive: false,
  resumeAt: 0,
  matchesBefore: 0,
  keepFrom: 0,
  count: 20,
  contextChars: 20,
  workMs: Number.POSITIVE_INFINITY,
};

/** The reference: every non-overlapping occurrence, string by string in document order. */
function naiveMatches(
  strings: readonly string[],
  query: string,
): { index: number; offset: number }[] {
  const found: { index: number; offset: number }[] = [];
  strings.forEach((text, index) => {
    const haystack = text.toLowerCase();
    const needle = query.toLowerCase();
    for (
      let at = haystack.indexOf(needle);
      at >= 0;
      at = haystack.indexOf(needle, at + needle.length)
    ) {
      found.push({ index, offset: at });
    }
  });
  return found;
}

/** A clock that advances one millisecond on every read. */
function steppingClock(): () => number {
  let time = 0;
  return () => {
    time += 1;
    return time;
  };
}

function search(roots: readonly SearchRoot[], options: Partial<SearchOptions>, now?: () => number) {
  return runToEnd(searchText(roots, { ...OPTIONS, ...options }), now);
}

describe("searchText windows and resume positions", () => {
  it("finds every match of a string longer than a window, also across window edges", () => {
    const edge = SEARCH_WINDOW_CHARS;
    const offsets = [0, edge - 3, edge * 2 - 6, edge * 2 + 1, edge * 3 - 1];
    const chars = Array.from({ length: edge * 3 + 10 }, () => "a");
    for (const offset of offsets) chars.splice(offset, 6, ..."NEEDLE");
    const text = chars.join("").slice(0, edge * 3 + 10);
    const expected = naiveMatches([text], "needle").map((match) => match.offset);
    const outcome = search([{ pointer: "/text", value: text }], {});
    expect(outcome.matches.map((match) => match.offset)).toEqual(expected);
    expect(outcome).toMatchObject({
      total: expected.length,
      complete: true,
      position: text.length,
    });
  });

  it("visits every match exactly once, in order, when each page resumes where the last one ended", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[ab]{0,12}$/), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        (strings, count) => {
          const roots = [{ pointer: "", value: strings }];
          const expected = naiveMatches(strings, "ab");
          const seen: string[] = [];
          let resume = { position: 0, offset: 0 };
          for (let page = 0; page <= expected.length; page += 1) {
            const outcome = search(roots, {
              query: "ab",
              count,
              resumeAt: resume.position,
              matchesBefore: resume.offset,
              keepFrom: resume.offset,
            });
            expect(outcome.total).toBe(expected.length);
            seen.push(...outcome.matches.map((match) => `${match.pointer}@${match.offset}`));
            if (outcome.matches.length < count || outcome.total === resume.offset + count) break;
            resume = {
              position: outcome.ends[outcome.ends.length - 1] as number,
              offset: resume.offset + outcome.matches.length,
            };
          }
          expect(seen).toEqual(expected.map((match) => `/${match.index}@${match.offset}`));
        },
      ),
    );
  });

  it("stops after workMs of work time with the matches so far and the position it reached", () => {
    const window = SEARCH_WINDOW_CHARS;
    const text = `${"x".repeat(window * 2)}needle${"x".repeat(window * 20)}needle`;
    const roots = [{ pointer: "/text", value: text }];
    // One clock read per window: a work limit of 5 ms stops after about five windows.
    const first = search(roots, { workMs: 5 }, steppingClock());
    expect(first.complete).toBe(false);
    expect(first.total).toBe(1);
    expect(first.matches.map((match) => match.offset)).toEqual([window * 2]);
    expect(first.position).toBeGreaterThan(window * 2 + 6);
    expect(first.position).toBeLessThan(text.length);
    let resume = { position: first.position, offset: 1 };
    const offsets: number[] = [];
    for (let call = 0; call < 30; call += 1) {
      const next = search(
        roots,
        {
          workMs: 5,
          resumeAt: resume.position,
          matchesBefore: resume.offset,
          keepFrom: resume.offset,
        },
        steppingClock(),
      );
      expect(next.position).toBeGreaterThan(resume.position);
      offsets.push(...next.matches.map((match) => match.offset as number));
      resume = { position: next.position, offset: next.total };
      if (next.complete) break;
    }
    expect(offsets).toEqual([text.length - 6]);
    expect(resume).toEqual({ position: text.length, offset: 2 });
  });

  it("always moves past its resume position, however small the work limit", () => {
    const text = "x".repeat(SEARCH_WINDOW_CHARS * 4);
    const outcome = search(
      [{ pointer: "", value: [text, text] }],
      { workMs: 0, resumeAt: SEARCH_WINDOW_CHARS * 6 },
      steppingClock(),
    );
    expect(outcome.complete).toBe(false);
    expect(outcome.position).toBe(SEARCH_WINDOW_CHARS * 7);
  });

  it("applies no time limit without a clock (every yield receives 0 ms)", () => {
    const text = "x".repeat(SEARCH_WINDOW_CHARS * 4);
    expect(search([{ pointer: "", value: text }], { workMs: 1 })).toMatchObject({ complete: true });
  });
});
