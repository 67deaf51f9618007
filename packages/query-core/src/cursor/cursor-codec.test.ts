import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CURSOR_MAC_BYTES,
  CURSOR_VERSION,
  CURSOR_VERSION_WITH_POSITION,
  decodeCursor,
  encodeCursor,
} from "./cursor-codec.js";
import { createKeyRing } from "./key-ring.js";

const ring = createKeyRing([
  { kid: "current", secret: Buffer.alloc(32, 1) },
  { kid: "previous", secret: Buffer.alloc(32, 2) },
]);
const view = { artifactId: "a".repeat(22), scopeHash: "scope-1", viewHash: "view-1" };
const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The MAC input as SPEC.md §7 frames it: each field as a 4-byte big-endian length and UTF-8. */
function framedByHand(fields: string[]): Buffer {
  return Buffer.concat(
    fields.flatMap((field) => {
      const text = Buffer.from(field, "utf8");
      const length = Buffer.alloc(4);
      length.writeUInt32BE(text.byteLength);
      return [length, text];
    }),
  );
}

/** Expects `cursor` to end with the MAC of `fields` under `secret`, computed by hand. */
function endsWithMacByHand(cursor: string, secret: Buffer, fields: string[]): void {
  const expected = createHmac("sha256", secret)
    .update(framedByHand(fields))
    .digest()
    .subarray(0, CURSOR_MAC_BYTES);
  const bytes = Buffer.from(cursor, "base64url");
  expect(bytes.subarray(bytes.byteLength - CURSOR_MAC_BYTES)).toEqual(expected);
}

describe("the cursor MAC", () => {
  it("is HMAC-SHA256 of the framed claims, as every replica computes it (property)", () => {
    const secret = Buffer.alloc(32, 1);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.string({ unit: "binary", maxLength: 20 }),
        fc.string({ maxLength: 44 }),
        fc.nat({ max: 2 ** 40 }),
        fc.option(fc.nat({ max: 2 ** 34 }), { nil: undefined }),
        (artifactId, scopeHash, viewHash, offset, position) => {
          const claims = { artifactId, scopeHash, viewHash, offset };
          const cursor = encodeCursor(
            ring,
            position === undefined ? claims : { ...claims, position },
          );
          const fields = [
            "bounded-mcp/cursor",
            position === undefined ? "1" : "2",
            "current",
            artifactId,
            scopeHash,
            viewHash,
            String(offset),
            ...(position === undefined ? [] : [String(position)]),
          ];
          endsWithMacByHand(cursor, secret, fields);
          const decoded = decodeCursor(createKeyRing([{ kid: "current", secret }]), cursor, {
            artifactId,
            scopeHash,
            viewHash,
          });
          expect(decoded).toEqual(
            position === undefined ? { ok: true, offset } : { ok: true, offset, position },
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is the same MAC when a view's kept signer signs page after page, views interleaved (property)", () => {
    // More views than the signers kept, so signers are made, reused and dropped as it goes.
    const secret = Buffer.alloc(32, 1);
    const claimsArbitrary = fc.record({
      artifactId: fc.string({ maxLength: 30 }),
      scopeHash: fc.string({ unit: "binary", maxLength: 20 }),
      viewHash: fc.string({ maxLength: 44 }),
    });
    fc.assert(
      fc.property(
        fc.array(claimsArbitrary, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: Number.MAX_SAFE_INTEGER })), {
          minLength: 1,
          maxLength: 60,
        }),
        (views, pages) => {
          for (const [which, offset] of pages) {
            const view = views[which % views.length] as (typeof views)[number];
            const cursor = encodeCursor(ring, { ...view, offset });
            const fields = [
              "bounded-mcp/cursor",
              "1",
              "current",
              view.artifactId,
              view.scopeHash,
              view.viewHash,
              String(offset),
            ];
            endsWithMacByHand(cursor, secret, fields);
            // Checked by a ring without the record of issued cursors: parsed and MACed again.
            const fresh = createKeyRing([{ kid: "current", secret }]);
            expect(decodeCursor(fresh, cursor, view)).toEqual({ ok: true, offset });
            expect(decodeCursor(ring, cursor, view)).toEqual({ ok: true, offset });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("encodeCursor / decodeCursor", () => {
  it("round-trips the offset for the view it was issued for", () => {
    const cursor = encodeCursor(ring, { ...view, offset: 40 });
    expect(decodeCursor(ring, cursor, view)).toEqual({ ok: true, offset: 40 });
  });

  it("lays out version, kid, varint offset and a 128-bit MAC", () => {
    const bytes = Buffer.from(encodeCursor(ring, { ...view, offset: 300 }), "base64url");
    expect({
      version: bytes[0],
      kid: bytes.subarray(2, 2 + bytes[1]!).toString("latin1"),
      offset: [...bytes.subarray(9, 11)],
      macBytes: bytes.byteLength - 11,
    }).toEqual({ version: CURSOR_VERSION, kid: "current", offset: [0xac, 0x02], macBytes: 16 });
    expect(CURSOR_MAC_BYTES).toBe(16);
  });

  it("stays within 64 characters for the largest offset and the longest kid", () => {
    const longKid = createKeyRing([{ kid: "k".repeat(16), secret: Buffer.alloc(32, 3) }]);
    const cursor = encodeCursor(longKid, { ...view, offset: Number.MAX_SAFE_INTEGER });
    expect(cursor.length).toBeLessThanOrEqual(64);
    expect(decodeCursor(longKid, cursor, view)).toEqual({
      ok: true,
      offset: Number.MAX_SAFE_INTEGER,
    });
  });

  it("is deterministic: the same claims give the same cursor", () => {
    expect(encodeCursor(ring, { ...view, offset: 7 })).toBe(
      encodeCursor(ring, { ...view, offset: 7 }),
    );
  });

  it("accepts a cursor signed by a key that is no longer the signing key", () => {
    const rotated = createKeyRing([
      { kid: "next", secret: Buffer.alloc(32, 9) },
      { kid: "current", secret: Buffer.alloc(32, 1) },
    ]);
    const cursor = encodeCursor(ring, { ...view, offset: 20 });
    expect(decodeCursor(rotated, cursor, view)).toEqual({ ok: true, offset: 20 });
  });

  it("reports unknown_key for a cursor whose key left the ring", () => {
    const retired = createKeyRing([{ kid: "next", secret: Buffer.alloc(32, 9) }]);
    const cursor = encodeCursor(ring, { ...view, offset: 20 });
    expect(decodeCursor(retired, cursor, view)).toEqual({ ok: false, reason: "unknown_key" });
  });

  it("reports mismatch for a kid in the ring whose secret differs (a forged cursor)", () => {
    const impostor = createKeyRing([{ kid: "current", secret: Buffer.alloc(32, 5) }]);
    const cursor = encodeCursor(impostor, { ...view, offset: 20 });
    expect(decodeCursor(ring, cursor, view)).toEqual({ ok: false, reason: "mismatch" });
  });

  it.each([
    ["another artifact", { artifactId: "b".repeat(22) }],
    ["another scope", { scopeHash: "scope-2" }],
    ["another view", { viewHash: "view-2" }],
  ])("reports mismatch for a cursor issued for %s", (_name, change) => {
    const cursor = encodeCursor(ring, { ...view, offset: 20 });
    expect(decodeCursor(ring, cursor, { ...view, ...change })).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it.each([
    ["an empty string", ""],
    ["padding", `${encodeCursor(ring, { ...view, offset: 1 })}==`],
    ["standard base64 characters", "+/+/+/+/+/+/"],
    ["more than 64 characters", "A".repeat(65)],
    ["another version", Buffer.from([3, 1, 0x6b, 0, ...Buffer.alloc(16)]).toString("base64url")],
    [
      "a version 2 cursor without its position",
      Buffer.from([2, 1, 0x6b, 0, ...Buffer.alloc(16, 1)]).toString("base64url"),
    ],
    [
      "a non-minimal offset",
      Buffer.from([1, 1, 0x6b, 0x80, 0, ...Buffer.alloc(16)]).toString("base64url"),
    ],
    ["a kid with a dot", Buffer.from([1, 1, 0x2e, 0, ...Buffer.alloc(16)]).toString("base64url")],
    ["a zero-length kid", Buffer.from([1, 0, 0, ...Buffer.alloc(16)]).toString("base64url")],
    ["a 15-byte MAC", Buffer.from([1, 1, 0x6b, 0, ...Buffer.alloc(15)]).toString("base64url")],
  ])("reports malformed for %s", (_name, cursor) => {
    expect(decodeCursor(ring, cursor, view)).toEqual({ ok: false, reason: "malformed" });
  });

  it("round-trips a scan position beside the offset (version 2), bound by the MAC", () => {
    const cursor = encodeCursor(ring, { ...view, offset: 3, position: 62_914_000 });
    expect(Buffer.from(cursor, "base64url")[0]).toBe(CURSOR_VERSION_WITH_POSITION);
    expect(decodeCursor(ring, cursor, view)).toEqual({ ok: true, offset: 3, position: 62_914_000 });
    const bytes = Buffer.from(cursor, "base64url");
    // The same bytes read as a version 1 cursor (the position taken for MAC bytes) do not verify.
    bytes[0] = CURSOR_VERSION;
    expect(decodeCursor(ring, bytes.toString("base64url"), view).ok).toBe(false);
    expect(encodeCursor(ring, { ...view, offset: 3, position: 0 })).not.toBe(
      encodeCursor(ring, { ...view, offset: 3 }),
    );
  });

  it("stays within 64 characters with a position below 2^35 and the longest kid", () => {
    const longKid = createKeyRing([{ kid: "k".repeat(16), secret: Buffer.alloc(32, 3) }]);
    const claims = { ...view, offset: 2 ** 35 - 1, position: 2 ** 35 - 1 };
    const cursor = encodeCursor(longKid, claims);
    expect(cursor.length).toBeLessThanOrEqual(64);
    expect(decodeCursor(longKid, cursor, view)).toEqual({
      ok: true,
      offset: 2 ** 35 - 1,
      position: 2 ** 35 - 1,
    });
    expect(() =>
      encodeCursor(longKid, { ...view, offset: Number.MAX_SAFE_INTEGER, position: 2 ** 52 }),
    ).toThrow(RangeError);
  });

  it("throws RangeError for an offset that is negative, fractional or unsafe", () => {
    for (const offset of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => encodeCursor(ring, { ...view, offset })).toThrow(RangeError);
    }
  });
});

describe("cursor properties", () => {
  const claims = fc.record({
    artifactId: fc.stringMatching(/^[A-Za-z0-9_-]{20,40}$/),
    scopeHash: fc.string({ maxLength: 40 }),
    viewHash: fc.string({ maxLength: 64 }),
    offset: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
  });

  it("rejects every single-character substitution, truncation and extension", () => {
    fc.assert(
      fc.property(claims, ({ offset, ...expected }) => {
        const cursor = encodeCursor(ring, { ...expected, offset });
        const variants = new Set<string>();
        for (let index = 0; index < cursor.length; index++) {
          for (const character of BASE64URL_ALPHABET) {
            if (character !== cursor[index]) {
              variants.add(cursor.slice(0, index) + character + cursor.slice(index + 1));
            }
          }
          variants.add(cursor.slice(0, index));
        }
        for (const character of `${BASE64URL_ALPHABET}=.`) variants.add(cursor + character);
        for (const variant of variants) {
          expect(decodeCursor(ring, variant, expected).ok).toBe(false);
        }
      }),
      { numRuns: 15 },
    );
  });

  it("rejects a cursor of another artifact, scope or view with mismatch, and another key with unknown_key", () => {
    const other = createKeyRing([{ kid: "other", secret: Buffer.alloc(32, 4) }]);
    fc.assert(
      fc.property(
        claims,
        claims,
        fc.constantFrom("artifactId", "scopeHash", "viewHash"),
        (first, second, changed) => {
          fc.pre(first[changed] !== second[changed]);
          const { offset, ...expected } = first;
          const cursor = encodeCursor(ring, first);
          expect(decodeCursor(ring, cursor, { ...expected, [changed]: second[changed] })).toEqual({
            ok: false,
            reason: "mismatch",
          });
          expect(decodeCursor(other, cursor, expected)).toEqual({
            ok: false,
            reason: "unknown_key",
          });
          expect(decodeCursor(ring, cursor, expected)).toEqual({ ok: true, offset });
        },
      ),
    );
  });

  it("checks a cursor it signed itself by its record only for the same claims and ring", () => {
    const cursor = encodeCursor(ring, { ...view, offset: 60, position: 7 });
    expect(decodeCursor(ring, cursor, view)).toEqual({ ok: true, offset: 60, position: 7 });
    // Claims whose plain concatenation equals the signed ones' are other claims.
    const shifted = {
      ...view,
      artifactId: `${view.artifactId}s`,
      scopeHash: view.scopeHash.slice(1),
    };
    for (const other of [
      { ...view, scopeHash: "scope-2" },
      { ...view, viewHash: "view-2" },
      { ...view, artifactId: "b".repeat(22) },
      shifted,
    ]) {
      expect(decodeCursor(ring, cursor, other)).toEqual({ ok: false, reason: "mismatch" });
    }
    const sameKids = createKeyRing([
      { kid: "current", secret: Buffer.alloc(32, 9) },
      { kid: "previous", secret: Buffer.alloc(32, 2) },
    ]);
    expect(decodeCursor(sameKids, cursor, view)).toEqual({ ok: false, reason: "mismatch" });
    // A changed character is still caught (by the MAC, not the record).
    const last = cursor.at(-1) === "A" ? "B" : "A";
    expect(decodeCursor(ring, `${cursor.slice(0, -1)}${last}`, view).ok).toBe(false);
  });

  // A ring with the same keys that signed nothing has no record: what it answers is what the
  // verification alone answers, so the issuing ring must answer every variant exactly the same.
  const verifier = createKeyRing([
    { kid: "current", secret: Buffer.alloc(32, 1) },
    { kid: "previous", secret: Buffer.alloc(32, 2) },
  ]);

  it("answers every changed cursor it issued exactly as a ring without its record does", () => {
    fc.assert(
      fc.property(
        claims,
        fc.option(fc.nat({ max: 2 ** 35 - 1 }), { nil: undefined }),
        ({ offset, ...expected }, position) => {
          const signed = { ...expected, offset: offset % 2 ** 35 };
          if (position !== undefined) (signed as { position?: number }).position = position;
          const cursor = encodeCursor(ring, signed);
          const variants = new Set<string>();
          for (let index = 0; index < cursor.length; index++) {
            for (const character of BASE64URL_ALPHABET) {
              if (character !== cursor[index]) {
                variants.add(cursor.slice(0, index) + character + cursor.slice(index + 1));
              }
            }
            variants.add(cursor.slice(0, index));
          }
          for (const character of `${BASE64URL_ALPHABET}=.`) variants.add(cursor + character);
          for (const variant of variants) {
            const answer = decodeCursor(ring, variant, expected);
            expect(answer.ok).toBe(false);
            expect(answer).toEqual(decodeCursor(verifier, variant, expected));
          }
          expect(decodeCursor(ring, cursor, expected)).toEqual(
            decodeCursor(verifier, cursor, expected),
          );
        },
      ),
      { numRuns: 10 },
    );
  });

  it("answers its own cursor sent back for other claims exactly as a ring without its record does", () => {
    const other = createKeyRing([{ kid: "current", secret: Buffer.alloc(32, 1) }]);
    fc.assert(
      fc.property(
        claims,
        claims,
        fc.subarray(["artifactId", "scopeHash", "viewHash"] as const, { minLength: 1 }),
        (first, second, changed) => {
          const { offset: _offset, ...expected } = first;
          const cursor = encodeCursor(ring, first);
          const asked = { ...expected };
          for (const name of changed) asked[name] = second[name];
          fc.pre(changed.some((name) => first[name] !== second[name]));
          expect(decodeCursor(ring, cursor, asked)).toEqual({ ok: false, reason: "mismatch" });
          expect(decodeCursor(ring, cursor, asked)).toEqual(decodeCursor(verifier, cursor, asked));
          // Another ring object (one key left: "previous" is gone) verifies for itself.
          expect(decodeCursor(other, cursor, expected)).toEqual({
            ok: true,
            offset: first.offset,
          });
        },
      ),
    );
  });

  it("keeps no record for a ring it did not build, whose keys might change in place", () => {
    let secret: Uint8Array | null = Buffer.alloc(32, 1);
    const inner = createKeyRing([{ kid: "current", secret: Buffer.alloc(32, 1) }]);
    const changing = {
      signingKid: "current",
      kids: ["current"],
      mac: (kid: string, data: string | Uint8Array) =>
        secret === null ? null : inner.mac(kid, data),
    };
    const cursor = encodeCursor(changing, { ...view, offset: 20 });
    expect(decodeCursor(changing, cursor, view)).toEqual({ ok: true, offset: 20 });
    secret = null;
    expect(decodeCursor(changing, cursor, view)).toEqual({ ok: false, reason: "unknown_key" });
  });
});
