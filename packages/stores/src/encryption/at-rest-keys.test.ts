import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAtRestKeys, deriveAtRestKeys, type MacKeyRing } from "./at-rest-keys.js";

/** A ring shaped like query-core's KeyRing (HMAC-SHA256 under each secret), for this package's tests. */
function macRing(entries: [kid: string, secret: string][]): MacKeyRing {
  const secrets = new Map(entries.map(([kid, secret]) => [kid, Buffer.from(secret, "utf8")]));
  return {
    kids: entries.map(([kid]) => kid),
    mac: (kid, data) => {
      const secret = secrets.get(kid);
      return secret === undefined ? null : createHmac("sha256", secret).update(data).digest();
    },
  };
}

const exported = (keys: ReturnType<typeof deriveAtRestKeys>, kid: string) =>
  keys.key(kid)?.export().toString("hex");

describe("deriveAtRestKeys", () => {
  const secretA = "a".repeat(32);
  const secretB = "b".repeat(32);

  it("derives one key per ring key, kid for kid, the signing kid encrypting", () => {
    const keys = deriveAtRestKeys(
      macRing([
        ["new", secretB],
        ["old", secretA],
      ]),
    );
    expect({
      encrypting: keys.encryptingKid,
      kids: keys.kids,
      lengths: keys.kids.map((kid) => keys.key(kid)?.symmetricKeySize),
    }).toEqual({
      encrypting: "new",
      kids: ["new", "old"],
      lengths: [32, 32],
    });
  });

  it("is deterministic (replicas agree) and depends on the secret and the kid", () => {
    const once = deriveAtRestKeys(macRing([["a", secretA]]));
    const again = deriveAtRestKeys(macRing([["a", secretA]]));
    const otherKid = deriveAtRestKeys(macRing([["z", secretA]]));
    const otherSecret = deriveAtRestKeys(macRing([["a", secretB]]));
    expect(exported(again, "a")).toBe(exported(once, "a"));
    expect(
      new Set([exported(once, "a"), exported(otherKid, "z"), exported(otherSecret, "a")]).size,
    ).toBe(3);
  });

  it("never uses the secret, nor a MAC the ring gives for cursors, ids or scopes, as the key", () => {
    const ring = macRing([["a", secretA]]);
    const key = exported(deriveAtRestKeys(ring), "a");
    const reused = [
      Buffer.from(secretA).toString("hex"),
      createHash("sha256").update(secretA).digest("hex"),
      Buffer.from(ring.mac("a", "bounded-mcp/at-rest-prk\0v1")!).toString("hex"),
      Buffer.from(ring.mac("a", "bounded-mcp/local-scope\0bounded-mcp")!).toString("hex"),
    ];
    expect(reused).not.toContain(key);
  });
});

describe("createAtRestKeys", () => {
  it("refuses an empty list, a bad or duplicate kid and a key that is not 32 bytes, without echoing keys", () => {
    const key = new Uint8Array(32).fill(7);
    const attempt = (entries: Parameters<typeof createAtRestKeys>[0]) => {
      try {
        createAtRestKeys(entries);
        return "built";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect([
      attempt([]),
      attempt([{ kid: "a/b", key }]),
      attempt([
        { kid: "a", key },
        { kid: "a", key },
      ]),
      attempt([{ kid: "a", key: key.subarray(0, 16) }]),
    ]).toEqual([
      "at-rest keys: at least one key is needed",
      "at-rest key 1: a kid is 1..16 characters of [A-Za-z0-9_-]",
      'at-rest key 2: duplicate kid "a"',
      "at-rest key 1: a key is exactly 32 bytes",
    ]);
  });
});
