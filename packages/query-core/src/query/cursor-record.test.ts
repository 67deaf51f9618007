import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKeyRing } from "../cursor/key-ring.js";
import { createViewCache } from "../views/view-cache.js";
import { runQuery } from "./run-query.js";
import { ARTIFACT_ID, createRequest, createTestContext } from "./test-support/query-harness.js";

// decodeCursor answers a cursor this process issued from its record (README "Cursors"). Whatever
// comes back changed must get the very envelope it got before the record existed: a ring with
// the same keys that issued nothing (so has no record) is the reference, page by page.
const secret = new Uint8Array(32).fill(7);
const issuing = createKeyRing([{ kid: "test", secret }]);
const fresh = () => createKeyRing([{ kid: "test", secret }]);
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const document = Array.from({ length: 90 }, (_, index) => ({
  id: index,
  kind: index % 3 === 0 ? "a" : "b",
}));
const input = { filters: [{ path: "/kind", value: "b" }], fields: ["id"], pageSize: 7 };
const viewCache = createViewCache();
const context = createTestContext({ keyRing: issuing, viewCache });

/** The cursor of the third page, issued (and so recorded) by the issuing ring. */
function issuedCursor(): string {
  let cursor: string | undefined;
  for (let page = 0; page < 2; page += 1) {
    const request = createRequest(cursor === undefined ? input : { ...input, cursor });
    const outcome = runQuery(document, request, context);
    cursor = (outcome.result as { responseMeta: { nextCursor: string } }).responseMeta.nextCursor;
  }
  return cursor as string;
}

/** The envelope of a request with `cursor`, from the issuing ring and from a ring without record. */
function bothAnswers(cursor: string, changes: Record<string, unknown> = {}, scope = "scope-a") {
  const request = { ...createRequest({ ...input, ...changes }), cursor };
  const withRecord = runQuery(document, request, { ...context, scopeHash: scope });
  const withoutRecord = runQuery(document, request, {
    ...context,
    scopeHash: scope,
    keyRing: fresh(),
  });
  return { withRecord, withoutRecord };
}

describe("a cursor the process issued, sent back changed", () => {
  it("answers its own cursor like a ring without its record", () => {
    const { withRecord, withoutRecord } = bothAnswers(issuedCursor());
    expect(withRecord.isError).toBe(false);
    expect(JSON.stringify(withRecord.result)).toBe(JSON.stringify(withoutRecord.result));
  });

  it("rejects every single-character change, truncation and extension with the same envelope", () => {
    const cursor = issuedCursor();
    const variants = new Set<string>();
    for (let index = 0; index < cursor.length; index += 1) {
      for (const character of BASE64URL) {
        if (character !== cursor[index]) {
          variants.add(cursor.slice(0, index) + character + cursor.slice(index + 1));
        }
      }
      variants.add(cursor.slice(0, index));
    }
    for (const character of `${BASE64URL}=.`) variants.add(cursor + character);
    for (const variant of variants) {
      const { withRecord, withoutRecord } = bothAnswers(variant);
      expect(withRecord.isError).toBe(true);
      expect(withRecord.result).toEqual(withoutRecord.result);
    }
  });

  it("rejects it for another scope, view or artifact with the same envelope", () => {
    const cursor = issuedCursor();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "scope-b"],
      [{ pageSize: 8 }, "scope-a"],
      [{ fields: ["id", "kind"] }, "scope-a"],
      [{ filters: [{ path: "/kind", value: "a" }] }, "scope-a"],
      [{ artifactId: `${ARTIFACT_ID.slice(0, -1)}k` }, "scope-a"],
    ];
    for (const [changes, scope] of cases) {
      const { withRecord, withoutRecord } = bothAnswers(cursor, changes, scope);
      expect(withRecord.isError).toBe(true);
      expect(withRecord.result).toEqual(withoutRecord.result);
      expect(withRecord.result).toMatchObject({
        response: { error: { code: "INVALID_RESPONSE_CURSOR", details: { reason: "mismatch" } } },
      });
    }
  });

  it("rejects a changed cursor of any page like a ring without its record (property)", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10 }),
        fc.nat({ max: 63 }),
        fc.constantFrom(...BASE64URL),
        (pages, at, character) => {
          let cursor: string | null = null;
          for (let page = 0; page <= pages; page += 1) {
            const request = createRequest(cursor === null ? input : { ...input, cursor });
            const outcome = runQuery(document, request, context);
            cursor = (outcome.result as { responseMeta: { nextCursor: string | null } })
              .responseMeta.nextCursor;
            if (cursor === null) return;
          }
          const text = cursor as string;
          const index = at % text.length;
          fc.pre(text[index] !== character);
          const variant = text.slice(0, index) + character + text.slice(index + 1);
          const { withRecord, withoutRecord } = bothAnswers(variant);
          expect(withRecord.isError).toBe(true);
          expect(withRecord.result).toEqual(withoutRecord.result);
        },
      ),
      { numRuns: 200 },
    );
  });
});
