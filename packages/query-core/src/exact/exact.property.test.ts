import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runQuery } from "../query/run-query.js";
import { createRequest, createTestContext } from "../query/test-support/query-harness.js";
import { isInexactLiteral } from "./detect.js";
import { parseJsonExact, parseJsonExactScanned } from "./parse-exact.js";
import { findInexactNumbers, stringifyExact } from "./stringify-exact.js";

/** A JSON value as text pieces: numbers as literals, so the model is exact by construction. */
type Model =
  | { kind: "literal"; text: string }
  | { kind: "array"; items: Model[] }
  | { kind: "object"; members: [string, Model][] };

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });

/**
 * Literals a double does not hold (SPEC.md §10), in the forms upstreams write: 18+ significant
 * digits ending in a nonzero one (a double's shortest decimal has at most 17), overflow,
 * underflow, -0.
 */
const inexactLiteral = fc.oneof(
  fc
    .tuple(fc.constantFrom("1", "9", "-4"), digits(16, 28))
    .map(([head, tail]) => `${head}${tail}1`),
  fc
    .tuple(fc.constantFrom("1", "-2.5", "7"), fc.integer({ min: 309, max: 9999 }))
    .map(([mantissa, exponent]) => `${mantissa}e${exponent}`),
  fc.integer({ min: 400, max: 9999 }).map((exponent) => `1e-${exponent}`),
  fc.constantFrom("-0", "-0.0", "-0e3", "0.30000000000000000001", "1.00000000000000000001"),
  fc
    .tuple(digits(1, 3), digits(17, 25))
    .map(([whole, fraction]) => `${Number(whole)}.5${fraction}1`),
);

/** Literals a double holds, as an upstream writes them. */
const exactLiteral = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom("0.1", "1.50", "1e5", "100", "-0.5", "1E+2"),
);

/** An exact literal as the answer writes it: normalized (SPEC.md §10 allows it). */
const normalized = (literal: string) => JSON.stringify(JSON.parse(literal));

/** Strings that look like what the exact parse and serializer use inside, or like numbers. */
const trickyString = fc.constantFrom(
  "\u0000\u00020\u0001",
  "\u0000",
  "\u0000\u0000\u00021\u0001",
  "-0",
  "12345678901234567890",
  "1e400",
  'say "-0"',
);

const scalar: fc.Arbitrary<Model> = fc
  .oneof(
    { weight: 3, arbitrary: inexactLiteral },
    { weight: 2, arbitrary: exactLiteral.map(normalized) },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.string(), trickyString).map((text) => JSON.stringify(text)),
    },
    { weight: 1, arbitrary: fc.constantFrom("true", "false", "null") },
  )
  .map((text): Model => ({ kind: "literal", text }));

const model: fc.Arbitrary<Model> = fc.letrec<{ value: Model }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("value"), { maxLength: 5 }).map((items): Model => ({ kind: "array", items })),
    fc
      .uniqueArray(
        fc.tuple(
          fc.string({ maxLength: 6 }).map((key) => `k${key}`),
          tie("value"),
        ),
        {
          maxLength: 5,
          selector: ([key]) => key,
        },
      )
      .map((members): Model => ({ kind: "object", members })),
  ),
})).value;

/** The model's compact JSON text (what an upstream wrote, without whitespace). */
function write(value: Model): string {
  if (value.kind === "literal") return value.text;
  if (value.kind === "array") return `[${value.items.map(write).join(",")}]`;
  return `{${value.members.map(([key, member]) => `${JSON.stringify(key)}:${write(member)}`).join(",")}}`;
}

describe("exact numbers: literal for literal (SPEC.md §10)", () => {
  it("the exact parse written back is the upstream text, every literal as written", () => {
    fc.assert(
      fc.property(model, (value) => {
        const text = write(value);
        expect(stringifyExact(parseJsonExact(text))?.text).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it("parseJsonExactScanned (no candidate test) gives parseJsonExact's document, candidate or not", () => {
    fc.assert(
      fc.property(model, (value) => {
        const text = write(value);
        expect(stringifyExact(parseJsonExactScanned(text))?.text).toBe(text);
        expect(parseJsonExactScanned(text)).toEqual(parseJsonExact(text));
      }),
      { numRuns: 400 },
    );
  });

  it("paging through every item by queries rebuilds the items, literal for literal", () => {
    fc.assert(
      fc.property(fc.array(model, { minLength: 1, maxLength: 25 }), (items) => {
        const text = `{"items":[${items.map(write).join(",")}]}`;
        const document = parseJsonExact(text);
        const context = createTestContext({ responseRoot: "/items" });
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 100; page += 1) {
          const request = createRequest(
            cursor === undefined ? { pageSize: 4 } : { pageSize: 4, cursor },
          );
          const outcome = runQuery(document, request, context);
          const answer = stringifyExact(outcome.result)?.text as string;
          // The client's view: the answer text, re-parsed losslessly.
          const parsed = parseJsonExact(answer) as {
            response: unknown[];
            responseMeta: { nextCursor: string | null; inexactNumbers?: unknown };
          };
          for (const element of parsed.response) seen.push(stringifyExact(element)?.text as string);
          // inexactNumbers counts exactly the literals of the page a double does not hold.
          const written = findInexactNumbers(parsed.response, Number.POSITIVE_INFINITY);
          expect(parsed.responseMeta.inexactNumbers).toEqual(
            written.total === 0
              ? undefined
              : { pointers: written.pointers.slice(0, 20), total: written.total },
          );
          if (parsed.responseMeta.nextCursor === null) break;
          cursor = parsed.responseMeta.nextCursor;
        }
        expect(seen).toEqual(items.map(write));
      }),
      { numRuns: 150 },
    );
  });

  it("every generated inexact literal is inexact, every exact one exact", () => {
    fc.assert(
      fc.property(inexactLiteral, exactLiteral, (inexact, exact) => {
        expect(isInexactLiteral(inexact)).toBe(true);
        expect(isInexactLiteral(exact)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
