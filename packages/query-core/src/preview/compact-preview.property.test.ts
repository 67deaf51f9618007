import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compactPreview,
  compactWithLimits,
  PREVIEW_LADDER,
  SAMPLE_LADDER,
} from "./compact-preview.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const CUT = /^([\s\S]*)…\[(\d+) chars total\]$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A cut string or key: the shown prefix and the whole length it claims, or null. */
function readCut(text: string): { prefix: string; total: number } | null {
  const match = CUT.exec(text);
  return match === null ? null : { prefix: match[1]!, total: Number(match[2]) };
}

/** Whether `shown` is `whole` or a marked cut of it: a strict prefix with the right total. */
function showsString(shown: string, whole: string): boolean {
  const cut = readCut(shown);
  if (cut === null) return shown === whole;
  return (
    cut.total === whole.length && cut.prefix.length < whole.length && whole.startsWith(cut.prefix)
  );
}

function isItemsMarker(value: unknown): value is { _omittedItems: number } {
  return (
    isRecord(value) && Object.keys(value).length === 1 && typeof value["_omittedItems"] === "number"
  );
}

/**
 * The problems of reading `preview` as `document`: every place where a preview value differs
 * from the document's value at the same path without being marked (a cut string or key, a
 * trailing `{"_omittedItems": n}` with the right n, `"_omittedKeys": n` with the right n).
 * A reference written for the test, independent of the implementation.
 */
function misleading(preview: unknown, document: unknown, path = ""): string[] {
  if (typeof preview === "string") {
    return typeof document === "string" && showsString(preview, document) ? [] : [path];
  }
  if (Array.isArray(preview)) {
    if (!Array.isArray(document)) return [path];
    const last = preview.at(-1);
    const shown = isItemsMarker(last) ? preview.slice(0, -1) : preview;
    const omitted = isItemsMarker(last) ? last._omittedItems : 0;
    if (shown.length + omitted !== document.length || (isItemsMarker(last) && omitted < 1)) {
      return [`${path} (item count)`];
    }
    return shown.flatMap((item, index) => misleading(item, document[index], `${path}/${index}`));
  }
  if (isRecord(preview)) {
    if (!isRecord(document)) return [path];
    const problems: string[] = [];
    const represented = new Set<string>();
    for (const [key, value] of Object.entries(preview)) {
      if (key === "_omittedKeys") continue;
      if (key === "_omittedItems" || key === "_deduplicated") {
        problems.push(`${path}/${key} (a marker name as data)`);
        continue;
      }
      const source =
        Object.hasOwn(document, key) && readCut(key) === null
          ? key
          : Object.keys(document).find(
              (candidate) => !represented.has(candidate) && showsString(key, candidate),
            );
      if (source === undefined) {
        problems.push(`${path}/${key} (no such key)`);
        continue;
      }
      represented.add(source);
      problems.push(...misleading(value, document[source], `${path}/${key}`));
    }
    const omitted = preview["_omittedKeys"] ?? 0;
    if (represented.size + (omitted as number) !== Object.keys(document).length) {
      problems.push(`${path} (key count)`);
    }
    return problems;
  }
  return Object.is(preview, document) || (preview === 0 && document === 0) ? [] : [path];
}

/** Strings that look like markers, keys named like markers, and plain JSON. */
const trickyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "_omittedItems",
    "_omittedKeys",
    "_deduplicated",
    "x…[3 chars total]",
    "…[0 chars total]",
  ),
  fc.string({ maxLength: 4 }).map((text) => `${text}…[${text.length + 5} chars total]`),
);

const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    trickyString,
    fc.array(tie("json"), { maxLength: 8 }),
    fc.dictionary(trickyString, tie("json"), { maxKeys: 8 }),
    fc.integer({ min: 0, max: 50 }).map((count) => ({ _omittedItems: count })),
  ),
}));

const document = json.map((value) => JSON.parse(JSON.stringify(value)) as Json);
const asParsed = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("a preview never passes off a cut value as the full value", () => {
  it("holds for every budget of compactPreview, on both ladders", () => {
    fc.assert(
      fc.property(
        document,
        fc.integer({ min: 0, max: 4_000 }),
        fc.boolean(),
        (value, maxBytes, sample) => {
          const preview = asParsed(
            compactPreview(value, maxBytes, { ladder: sample ? SAMPLE_LADDER : PREVIEW_LADDER }),
          );
          expect(misleading(preview, value)).toEqual([]);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("holds for every rung's limits, the tightest included", () => {
    const rungs = [
      ...PREVIEW_LADDER,
      ...SAMPLE_LADDER,
      { depth: 0, items: 0, keys: 0, chars: 8, nodes: 0 },
    ];
    fc.assert(
      fc.property(document, fc.constantFrom(...rungs), (value, limits) => {
        expect(misleading(asParsed(compactWithLimits(value, limits)), value)).toEqual([]);
      }),
      { numRuns: 600 },
    );
  });

  it("holds when a preview is cut again as a marked value: its markers merge with the new cuts", () => {
    const rungs = [...PREVIEW_LADDER, ...SAMPLE_LADDER];
    fc.assert(
      fc.property(
        document,
        fc.constantFrom(...rungs),
        fc.integer({ min: 0, max: 3_000 }),
        (value, first, maxBytes) => {
          const preview = asParsed(compactWithLimits(value, first));
          const again = asParsed(compactPreview(preview, maxBytes, { marked: true }));
          expect(misleading(again, value)).toEqual([]);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("the reference finds an unmarked cut, a wrong count and a marker name copied as data", () => {
    expect(misleading("abc", "abcd")).toEqual([""]);
    expect(misleading([1, { _omittedItems: 1 }], [1, 2, 3])).toEqual([" (item count)"]);
    expect(misleading({ _omittedItems: 1 }, { _omittedItems: 1 })).toEqual([
      "/_omittedItems (a marker name as data)",
      " (key count)",
    ]);
    expect(misleading({ a: 1 }, { a: 1, b: 2 })).toEqual([" (key count)"]);
    expect(misleading("ab…[3 chars total]", "abc")).toEqual([]);
  });
});
