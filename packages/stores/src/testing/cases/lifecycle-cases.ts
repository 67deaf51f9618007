import { describe, expect, it } from "vitest";
import { createTestClock, metaFor, testArtifactId } from "../fixtures.js";
import { INVALID_IDS, rejectionOf, START, type SuiteContext } from "../suite-context.js";

/** The conformance cases of rejected ids, idempotent delete, persistence, sharing and dispose. */
export function describeLifecycleCases(context: SuiteContext): void {
  const { fresh, open, nextLocation, itWhen } = context;
  describe("artifact ids", () => {
    it.each(INVALID_IDS)("rejects %s on every call with INVALID_ARTIFACT_ID", async (_, id) => {
      const { store } = await fresh();
      const body = Buffer.from("{}");
      const meta = { ...metaFor(testArtifactId(300), body), id };
      const calls = {
        put: await rejectionOf(store.put(meta, body)),
        get: await rejectionOf(store.get(id)),
        head: await rejectionOf(store.head(id)),
        delete: await rejectionOf(store.delete(id)),
      };
      const expected = (operation: string) => ({
        name: "StoreError",
        code: "INVALID_ARTIFACT_ID",
        store: store.name,
        operation,
      });
      expect(calls).toEqual({
        put: expected("put"),
        get: expected("get"),
        head: expected("head"),
        delete: expected("delete"),
      });
    });

    it("accepts ids of 20 and of 100 url-safe characters", async () => {
      const { store } = await fresh();
      const body = Buffer.from("{}");
      const shortest = metaFor("A-_z".repeat(5), body);
      const longest = metaFor("0aZ_-".repeat(20), body);
      await store.put(shortest, body);
      await store.put(longest, body);
      expect([await store.head(shortest.id), await store.head(longest.id)]).toEqual([
        shortest,
        longest,
      ]);
    });
  });

  describe("delete", () => {
    it("removes an artifact, and deleting it again or an unknown id resolves", async () => {
      const { store } = await fresh();
      const body = Buffer.from('{"gone":true}');
      const meta = metaFor(testArtifactId(400), body);
      await store.put(meta, body);
      await store.delete(meta.id);
      expect(await store.get(meta.id)).toBeNull();
      await expect(store.delete(meta.id)).resolves.toBeUndefined();
      await expect(store.delete(testArtifactId(401))).resolves.toBeUndefined();
      expect(await store.head(meta.id)).toBeNull();
    });
  });

  describe("persistence and sharing", () => {
    itWhen("persistent")(
      "a new store over the same location serves earlier artifacts",
      async () => {
        const clock = createTestClock(START);
        const location = nextLocation();
        const first = await open(clock, { location });
        const body = Buffer.from('{"survives":"a restart"}');
        const meta = metaFor(testArtifactId(500), body);
        await first.put(meta, body);
        await first.dispose();
        const second = await open(clock, { location });
        expect(await second.get(meta.id)).toEqual({ meta, body });
        expect(await second.head(meta.id)).toEqual(meta);
      },
    );

    itWhen("shared")(
      "two stores open over one location see each other's puts and deletes",
      async () => {
        const clock = createTestClock(START);
        const location = nextLocation();
        const [writer, reader] = [await open(clock, { location }), await open(clock, { location })];
        const body = Buffer.from('{"shared":true}');
        const meta = metaFor(testArtifactId(501), body);
        await writer.put(meta, body);
        expect(await reader.get(meta.id)).toEqual({ meta, body });
        await reader.delete(meta.id);
        expect(await writer.head(meta.id)).toBeNull();
      },
    );

    itWhen("shared")(
      "an artifact expired in one store reads as expired through the other until swept",
      async () => {
        const clock = createTestClock(START);
        const location = nextLocation();
        const [writer, reader] = [await open(clock, { location }), await open(clock, { location })];
        const body = Buffer.from('{"shared":"and expired"}');
        const meta = metaFor(testArtifactId(502), body, { createdAt: START, expiresAt: START + 1 });
        await writer.put(meta, body);
        clock.set(meta.expiresAt);
        const expired = {
          expired: true,
          id: meta.id,
          scopeHash: meta.scopeHash,
          expiresAt: meta.expiresAt,
        };
        expect([await reader.head(meta.id), await reader.get(meta.id)]).toEqual([expired, expired]);
      },
    );
  });

  describe("dispose", () => {
    it("resolves twice, and every later call fails with STORE_UNAVAILABLE", async () => {
      const { store } = await fresh();
      const body = Buffer.from("{}");
      const meta = metaFor(testArtifactId(600), body);
      await store.put(meta, body);
      await store.dispose();
      await expect(store.dispose()).resolves.toBeUndefined();
      const unavailable = (operation: string) => ({
        name: "StoreError",
        code: "STORE_UNAVAILABLE",
        store: store.name,
        operation,
      });
      expect({
        put: await rejectionOf(store.put(meta, body)),
        get: await rejectionOf(store.get(meta.id)),
        head: await rejectionOf(store.head(meta.id)),
        delete: await rejectionOf(store.delete(meta.id)),
        sweep: await rejectionOf(store.sweep()),
      }).toEqual({
        put: unavailable("put"),
        get: unavailable("get"),
        head: unavailable("head"),
        delete: unavailable("delete"),
        sweep: unavailable("sweep"),
      });
    });
  });
}
