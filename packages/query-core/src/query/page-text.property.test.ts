import { DEFAULT_LIMITS } from "@bounded-mcp/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonExact } from "../exact/parse-exact.js";
import { stringifyExact } from "../exact/stringify-exact.js";
import { pageText } from "./page-result.js";
import { runQuery } from "./run-query.js";
import { createRequest, createTestContext } from "./test-support/query-harness.js";

// Strings that spell the page's splice slots, so the fallback is exercised too.
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(
    "é",
    "😀",
    "\u0000bounded-mcp page slot\u0000",
    "\u0000bounded-mcp bytes slot\u0000",
  ),
  fc.constantFrom("x".repeat(400), "ü".repeat(200)),
);
// Literals JSON.parse would change (SPEC.md §10): the engine keeps them as ExactNumbers.
const number = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom("12345678901234567890", "1e400", "0.10000000000000000001"),
);
const item = fc.record(
  {
    id: fc.integer({ min: 0, max: 3 }),
    name: text,
    n: number,
    tags: fc.array(text, { maxLength: 3 }),
  },
  { requiredKeys: ["id"] },
);
/** The document as the adapter parses it: exact literals as written. */
const documentText = fc
  .array(item, { maxLength: 30 })
  .map((items) =>
    JSON.stringify(items).replace(
      /"n":"([-0-9.e]+)"/g,
      (_whole, literal: string) => `"n":${literal}`,
    ),
  );
const requestInput = fc.record(
  {
    pageSize: fc.integer({ min: 1, max: 25 }),
    fields: fc.constantFrom(["id"], ["id", "name"], ["name", "n", "tags"]),
    filters: fc.constantFrom(
      [{ path: "/id", op: "gte", value: 1 }],
      [{ path: "/name", op: "eq", value: "\u0000bounded-mcp page slot\u0000" }],
      [{ path: "/id", op: "in", value: [0, 2] }],
    ),
  },
  { requiredKeys: [] },
);

describe("pageText", () => {
  it("is the answer's stringifyExact text and count, byte for byte, whenever it is set", () => {
    fc.assert(
      fc.property(
        documentText,
        requestInput,
        fc.constantFrom(600, 1_200, 4_000, DEFAULT_LIMITS.inlineBytes),
        (written, input, inlineBytes) => {
          const document = parseJsonExact(written);
          const context = createTestContext({ limits: { ...DEFAULT_LIMITS, inlineBytes } });
          let request = createRequest(input);
          for (let page = 0; page < 40; page += 1) {
            const outcome = runQuery(document, request, context);
            const kept = pageText(outcome.result);
            const whole = stringifyExact(outcome.result);
            if (kept !== undefined) {
              expect(kept.text).toBe(whole?.text);
              expect(kept.count).toBe(whole?.count);
            }
            if (outcome.isError) return;
            const meta = outcome.result.responseMeta;
            expect(meta.serializedBytes).toBe(Buffer.byteLength(whole?.text ?? ""));
            if (meta.nextCursor === null) return;
            request = { ...request, cursor: meta.nextCursor };
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is set for an array page of small items and left unset for an object page", () => {
    const context = createTestContext();
    const items = createRequest({ fields: ["id"] });
    const page = runQuery([{ id: 1 }, { id: 2 }], items, context);
    expect(pageText(page.result)?.text).toBe(JSON.stringify(page.result));
    const entries = runQuery({ a: 1, b: 2 }, createRequest({ objectMode: "entries" }), context);
    expect(entries.isError).toBe(false);
    const object = runQuery({ a: 1, b: 2 }, createRequest({}), context);
    expect(pageText(object.result)).toBeUndefined();
  });
});
