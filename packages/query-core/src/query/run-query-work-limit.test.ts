import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { query } from "./test-support/query-harness.js";
import { SEARCH_WINDOW_CHARS } from "./text-search.js";

// SPEC.md §9 rule 6: a textSearch stops after limits.queryWorkMs of work time with work_limit,
// and its cursor resumes the scan; following cursors visits every match once, in order.

/** One virtual millisecond per clock read (one read per window or ~64 Ki units of walk). */
function steppingClock(): () => number {
  let time = 0;
  return () => {
    time += 1;
    return time;
  };
}

/** Strings made of gaps of "x" and occurrences of "needle"; the reference match list. */
function buildStrings(segments: { gap: number; needle: boolean }[][]) {
  const expected: string[] = [];
  const strings = segments.map((parts, index) => {
    let text = "";
    for (const part of parts) {
      text += "x".repeat(part.gap);
      if (part.needle) {
        expected.push(`/strings/${index}@${text.length}`);
        text += "needle";
      }
    }
    return text;
  });
  return { strings, expected };
}

describe("runQuery: textSearch work limit (§9 rule 6)", () => {
  it("answers work_limit with the matches so far, remainingCount null and a resuming cursor", () => {
    const text = `${"x".repeat(SEARCH_WINDOW_CHARS * 3)}needle${"x".repeat(SEARCH_WINDOW_CHARS * 10)}needle`;
    const first = query(
      { text },
      { textSearch: { query: "needle" } },
      { now: steppingClock(), limits: { ...limits(), queryWorkMs: 5 } },
    ).result;
    expect(first).toMatchInlineSnapshot(`
      {
        "artifactId": "art_0123456789abcdefghij",
        "response": [
          {
            "context": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxneedlexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "contextEnd": 196731,
            "contextStart": 196491,
            "offset": 196608,
            "pointer": "/text",
          },
        ],
        "responseMeta": {
          "complete": false,
          "contractVersion": 3,
          "nextCursor": "AgR0ZXN0AYaADF8M0zeWfzQpF302AiMpx-k",
          "pageUnit": "matches",
          "remainingCount": null,
          "returnedCount": 1,
          "serializedBytes": 670,
          "totalCount": 1,
          "truncated": true,
          "truncationReason": "work_limit",
          "warning": null,
        },
        "responsePath": "",
      }
    `);
    const second = query(
      { text },
      { textSearch: { query: "needle" }, cursor: first.responseMeta.nextCursor },
      { now: steppingClock(), limits: { ...limits(), queryWorkMs: 100 } },
    ).result;
    expect(second.response.map((match: { offset: number }) => match.offset)).toEqual([
      SEARCH_WINDOW_CHARS * 13 + 6,
    ]);
    expect(second.responseMeta).toMatchObject({
      totalCount: 2,
      remainingCount: 0,
      nextCursor: null,
      truncationReason: null,
    });
  });

  it("visits every match exactly once, in order, however the work limit cuts the scan", () => {
    const segment = fc.record({
      gap: fc.integer({ min: 0, max: SEARCH_WINDOW_CHARS * 2 }),
      needle: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(segment, { maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        (segments, queryWorkMs, pageSize) => {
          const { strings, expected } = buildStrings(segments);
          const input = { responsePath: "/strings", textSearch: { query: "NEEDLE" }, pageSize };
          const visited: string[] = [];
          let cursor: string | undefined;
          let last: { responseMeta: Record<string, unknown> } | undefined;
          for (let call = 0; call < 500; call += 1) {
            const { result } = query(
              { strings },
              cursor === undefined ? input : { ...input, cursor },
              { now: steppingClock(), limits: { ...limits(), queryWorkMs } },
            );
            for (const match of result.response) visited.push(`${match.pointer}@${match.offset}`);
            if (result.responseMeta.truncationReason === "work_limit") {
              expect(result.responseMeta.remainingCount).toBeNull();
              // Matches found so far: those returned, and any found after the page was full.
              expect(result.responseMeta.totalCount).toBeGreaterThanOrEqual(visited.length);
            }
            last = result;
            cursor = result.responseMeta.nextCursor ?? undefined;
            if (cursor === undefined) break;
          }
          expect(visited).toEqual(expected);
          expect(last?.responseMeta.totalCount).toBe(expected.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});

function limits() {
  return { ...DEFAULT_LIMITS };
}
