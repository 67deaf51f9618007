import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKeyRing, type KeyRing, KeyRingError, macOfParts, parseKeyRing } from "./key-ring.js";

const SECRET_A = Buffer.alloc(32, 1);
const SECRET_B = Buffer.alloc(40, 2);

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("createKeyRing", () => {
  it("signs with the first key and verifies with all of them", () => {
    const ring = createKeyRing([
      { kid: "new", secret: SECRET_A },
      { kid: "old", secret: SECRET_B },
    ]);
    expect({ signingKid: ring.signingKid, kids: ring.kids }).toEqual({
      signingKid: "new",
      kids: ["new", "old"],
    });
    expect(ring.mac("old", "data")).toEqual(createHmac("sha256", SECRET_B).update("data").digest());
    expect(ring.mac("new", Buffer.from("data"))).toEqual(
      createHmac("sha256", SECRET_A).update("data").digest(),
    );
  });

  it("gives HMAC-SHA256 for any secret length and data, whole or in parts (property)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 150 }),
        fc.array(fc.uint8Array({ maxLength: 90 }), { maxLength: 4 }),
        (secret, parts) => {
          const ring = createKeyRing([{ kid: "k", secret }]);
          const whole = Buffer.concat(parts);
          const expected = createHmac("sha256", secret).update(whole).digest();
          expect(ring.mac("k", whole)).toEqual(expected);
          expect(ring.mac("k", whole.toString("latin1"))).toEqual(
            createHmac("sha256", secret).update(whole.toString("latin1")).digest(),
          );
          expect(macOfParts(ring, "k", parts)).toEqual(expected);
          expect(macOfParts(ring, "missing", parts)).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("asks a ring built elsewhere for the MAC of the parts concatenated", () => {
    const seen: string[] = [];
    const other: KeyRing = {
      signingKid: "x",
      kids: ["x"],
      mac: (kid, data) => {
        seen.push(`${kid}:${Buffer.from(data).toString()}`);
        return Buffer.alloc(32, 9);
      },
    };
    expect(macOfParts(other, "x", [Buffer.from("ab"), Buffer.from("cd")])).toEqual(
      Buffer.alloc(32, 9),
    );
    expect(seen).toEqual(["x:abcd"]);
  });

  it("returns null as the MAC of an unknown kid", () => {
    expect(createKeyRing([{ secret: SECRET_A }]).mac("missing", "data")).toBeNull();
  });

  it("derives a stable short kid from the secret when none is given", () => {
    const first = createKeyRing([{ secret: SECRET_A }]);
    const again = createKeyRing([{ secret: Buffer.from(SECRET_A) }]);
    const other = createKeyRing([{ secret: SECRET_B }]);
    expect(first.signingKid).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(again.signingKid).toBe(first.signingKid);
    expect(other.signingKid).not.toBe(first.signingKid);
  });

  it("keeps its own copy of the secret", () => {
    const secret = Buffer.alloc(32, 7);
    const ring = createKeyRing([{ kid: "k", secret }]);
    const before = ring.mac("k", "x");
    secret.fill(0);
    expect(ring.mac("k", "x")).toEqual(before);
  });

  it.each([
    ["an empty list", [], "a key ring needs at least one key"],
    [
      "a short secret",
      [{ secret: Buffer.alloc(31) }],
      "key 1: the secret must be at least 32 bytes",
    ],
    [
      "a kid with a colon",
      [{ kid: "a:b", secret: SECRET_A }],
      "key 1: a kid is 1..16 characters of [A-Za-z0-9_-]",
    ],
    [
      "a kid longer than 16 characters",
      [{ kid: "k".repeat(17), secret: SECRET_A }],
      "key 1: a kid is 1..16 characters of [A-Za-z0-9_-]",
    ],
    [
      "a duplicate kid",
      [
        { kid: "same", secret: SECRET_A },
        { kid: "same", secret: SECRET_B },
      ],
      'key 2: duplicate kid "same"',
    ],
  ])("rejects %s with INVALID_KEY_RING", (_name, keys, message) => {
    const error = errorOf(() => createKeyRing(keys));
    expect(KeyRingError.isInstance(error)).toBe(true);
    expect({ code: (error as KeyRingError).code, message: (error as Error).message }).toEqual({
      code: "INVALID_KEY_RING",
      message,
    });
  });
});

describe("parseKeyRing (BOUNDED_MCP_KEYS)", () => {
  const hexA = SECRET_A.toString("hex");
  const base64urlB = SECRET_B.toString("base64url");

  it("reads kid:hex and kid:base64url entries, the first one signing", () => {
    const ring = parseKeyRing(` k2:${hexA} , k1:${base64urlB} `);
    const expected = createKeyRing([
      { kid: "k2", secret: SECRET_A },
      { kid: "k1", secret: SECRET_B },
    ]);
    expect(ring.kids).toEqual(["k2", "k1"]);
    expect(ring.mac("k1", "x")).toEqual(expected.mac("k1", "x"));
    expect(ring.mac("k2", "x")).toEqual(expected.mac("k2", "x"));
  });

  it("gives an entry without a kid the default kid of its secret", () => {
    const ring = parseKeyRing(hexA.toUpperCase());
    expect(ring.kids).toEqual(createKeyRing([{ secret: SECRET_A }]).kids);
  });

  it("accepts padded base64url", () => {
    const secret = Buffer.alloc(32, 9);
    const ring = parseKeyRing(`k:${secret.toString("base64url")}=`);
    expect(ring.mac("k", "x")).toEqual(createKeyRing([{ kid: "k", secret }]).mac("k", "x"));
  });

  it.each([
    ["an empty value", " , ", "BOUNDED_MCP_KEYS is empty: expected a comma-separated [kid:]secret"],
    [
      "a secret of 31 bytes",
      Buffer.alloc(31, 1).toString("base64url"),
      "BOUNDED_MCP_KEYS entry 1: the secret must be hex (64+ characters) or base64url (at least 32 bytes)",
    ],
    [
      "standard base64 with + and /",
      `k:${"+/".repeat(22)}`,
      "BOUNDED_MCP_KEYS entry 1: the secret must be hex (64+ characters) or base64url (at least 32 bytes)",
    ],
    [
      "a non-canonical base64url tail",
      `${SECRET_A.toString("base64url").slice(0, -1)}B`,
      "BOUNDED_MCP_KEYS entry 1: the secret must be hex (64+ characters) or base64url (at least 32 bytes)",
    ],
    ["an empty kid", `:${hexA}`, "key 1: a kid is 1..16 characters of [A-Za-z0-9_-]"],
  ])("rejects %s without echoing the secret", (_name, text, message) => {
    const error = errorOf(() => parseKeyRing(text));
    expect(KeyRingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(message);
  });
});
