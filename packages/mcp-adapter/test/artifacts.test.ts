import { ARTIFACT_ID_PATTERN } from "@bounded-mcp/contract";
import { createKeyRing } from "@bounded-mcp/query-core";
import { describe, expect, it } from "vitest";
import { deriveArtifactId } from "../src/artifacts/artifact-id.js";
import { createParseCache } from "../src/artifacts/parse-cache.js";
import { createScopeFinder, deriveLocalScope } from "../src/artifacts/scope.js";

const ring = createKeyRing([{ kid: "one", secret: Buffer.alloc(32, 1) }]);
const otherRing = createKeyRing([{ kid: "two", secret: Buffer.alloc(32, 2) }]);
const SHA = "a".repeat(64);

describe("artifact ids", () => {
  it("are 24 url-safe characters matching ARTIFACT_ID_PATTERN", () => {
    const id = deriveArtifactId(ring, "scope", SHA);
    expect(id).toMatch(ARTIFACT_ID_PATTERN);
    expect(id).toHaveLength(24);
  });

  it("are the same for the same payload and caller, and differ otherwise", () => {
    const id = deriveArtifactId(ring, "scope", SHA);
    expect(deriveArtifactId(ring, "scope", SHA)).toBe(id);
    expect(deriveArtifactId(ring, "other scope", SHA)).not.toBe(id);
    expect(deriveArtifactId(ring, "scope", "b".repeat(64))).not.toBe(id);
    expect(deriveArtifactId(otherRing, "scope", SHA)).not.toBe(id);
  });
});

describe("caller scope", () => {
  it("prefers the resolver, then AuthInfo.clientId, then the session id, then the local scope", async () => {
    const find = createScopeFinder({
      keyRing: ring,
      namespace: "ns",
      resolver: (context) => (context.toolName === "tenant-tool" ? "tenant-1" : undefined),
    });
    const authInfo = { token: "t", clientId: "client-1", scopes: [] };
    const local = deriveLocalScope(ring, "ns");
    expect((await find({ toolName: "tenant-tool", authInfo, sessionId: "s" })).kind).toBe(
      "resolver",
    );
    expect((await find({ authInfo, sessionId: "s" })).kind).toBe("client");
    expect((await find({ sessionId: "s" })).kind).toBe("session");
    expect(await find({})).toEqual(local);
  });

  it("never lets a session id collide with a client id of the same spelling", async () => {
    const find = createScopeFinder({ keyRing: ring, namespace: "ns" });
    const asClient = await find({ authInfo: { token: "t", clientId: "same", scopes: [] } });
    const asSession = await find({ sessionId: "same" });
    expect(asClient.hash).not.toBe(asSession.hash);
  });

  it("derives the stdio local scope from the key ring and the namespace", () => {
    expect(deriveLocalScope(ring, "ns")).toEqual(deriveLocalScope(ring, "ns"));
    expect(deriveLocalScope(ring, "ns").hash).not.toBe(deriveLocalScope(ring, "other").hash);
    expect(deriveLocalScope(ring, "ns").hash).not.toBe(deriveLocalScope(otherRing, "ns").hash);
    expect(deriveLocalScope(ring, "ns").hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the parse cache", () => {
  it("evicts the least recently used entries once the byte budget is passed", () => {
    const cache = createParseCache<string>({ maxBytes: 100 });
    cache.set("a", "A", 40);
    cache.set("b", "B", 40);
    expect(cache.get("a")).toBe("A");
    cache.set("c", "C", 40);
    expect(cache.peek("b")).toBeUndefined();
    expect(cache.peek("a")).toBe("A");
    expect(cache.peek("c")).toBe("C");
    expect(cache.counters()).toEqual({ hits: 1, misses: 0, entries: 2, bytes: 80 });
  });

  it("does not keep an entry larger than the whole budget, and counts misses", () => {
    const cache = createParseCache<string>({ maxBytes: 100 });
    cache.set("huge", "H", 101);
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.counters()).toEqual({ hits: 0, misses: 1, entries: 0, bytes: 0 });
  });

  it("replaces an entry under the same key without counting it twice", () => {
    const cache = createParseCache<string>({ maxBytes: 100 });
    cache.set("a", "A1", 60);
    cache.set("a", "A2", 30);
    expect(cache.counters()).toMatchObject({ entries: 1, bytes: 30 });
    expect(cache.get("a")).toBe("A2");
  });
});
