import { describe, expect, it } from "vitest";
import { createTestClock, metaFor, testArtifactId } from "../fixtures.js";
import {
  liveOf,
  metaOf,
  rejectionOf,
  START,
  type SuiteContext,
  storedOf,
} from "../suite-context.js";

/**
 * The conformance cases of expiry at the exact boundary, expiry reported until swept (and after
 * the store's own sweep), sweep, and quota pruning.
 */
export function describeExpiryAndQuotaCases(context: SuiteContext): void {
  const { fresh, open, itWhen } = context;
  describe("expiry", () => {
    it("serves an artifact until the millisecond before expiresAt and never from expiresAt on", async () => {
      const { store, clock } = await fresh();
      const body = Buffer.from('{"ttl":true}');
      const meta = metaFor(testArtifactId(20), body, {
        createdAt: START,
        expiresAt: START + 5_000,
      });
      await store.put(meta, body);
      const readAt = async (now: number) => {
        clock.set(now);
        return {
          get: storedOf(await store.get(meta.id)) !== null,
          head: metaOf(await store.head(meta.id)) !== null,
        };
      };
      expect(await readAt(meta.expiresAt - 1)).toEqual({ get: true, head: true });
      expect(await readAt(meta.expiresAt)).toEqual({ get: false, head: false });
      expect(await readAt(meta.expiresAt + 1)).toEqual({ get: false, head: false });
    });

    it("reports an expired artifact as expired on every read until swept, and after this store swept it", async () => {
      const { store, clock } = await fresh();
      const body = Buffer.from('{"ttl":"over"}');
      const meta = metaFor(testArtifactId(25), body, { createdAt: START, expiresAt: START + 10 });
      await store.put(meta, body);
      clock.set(meta.expiresAt);
      const expired = {
        expired: true,
        id: meta.id,
        scopeHash: meta.scopeHash,
        expiresAt: meta.expiresAt,
      };
      const reads = async () => [await store.get(meta.id), await store.head(meta.id)];
      expect([...(await reads()), ...(await reads()), ...(await reads())]).toEqual(
        Array(6).fill(expired),
      );
      expect(await store.sweep()).toEqual({ removed: 1, freedBytes: body.byteLength });
      expect(await reads()).toEqual([expired, expired]);
      await store.delete(meta.id);
      expect(await reads()).toEqual([null, null]);
    });

    it("serves an expired id again once it is put again", async () => {
      const { store, clock } = await fresh();
      const body = Buffer.from('{"again":true}');
      const first = metaFor(testArtifactId(26), body, { createdAt: START, expiresAt: START + 10 });
      await store.put(first, body);
      clock.set(START + 10);
      await store.sweep();
      const second = metaFor(first.id, body, { createdAt: START + 10, expiresAt: START + 1_000 });
      await store.put(second, body);
      expect([await store.head(first.id), await store.get(first.id)]).toEqual([
        second,
        { meta: second, body },
      ]);
    });

    it("sweep(now) removes exactly the artifacts expired at now and reports what it freed", async () => {
      const { store } = await fresh();
      const bodies = [Buffer.alloc(100, 1), Buffer.alloc(200, 2), Buffer.alloc(300, 3)];
      const expiries = [START + 100, START + 200, START + 300];
      for (const [index, body] of bodies.entries()) {
        await store.put(
          metaFor(testArtifactId(21 + index), body, { expiresAt: expiries[index] }),
          body,
        );
      }
      expect(await store.sweep(START + 99)).toEqual({ removed: 0, freedBytes: 0 });
      expect(await store.sweep(START + 200)).toEqual({ removed: 2, freedBytes: 300 });
      expect(await store.sweep(START + 200)).toEqual({ removed: 0, freedBytes: 0 });
      expect(await liveOf(store, [21, 22, 23].map(testArtifactId))).toEqual([testArtifactId(23)]);
      expect(await store.sweep(START + 300)).toEqual({ removed: 1, freedBytes: 300 });
    });

    it("sweep() without an argument uses the store's clock", async () => {
      const { store, clock } = await fresh();
      const body = Buffer.alloc(10, 7);
      await store.put(metaFor(testArtifactId(24), body, { expiresAt: START + 50 }), body);
      expect(await store.sweep()).toEqual({ removed: 0, freedBytes: 0 });
      clock.set(START + 50);
      expect(await store.sweep()).toEqual({ removed: 1, freedBytes: 10 });
      expect(await store.sweep()).toEqual({ removed: 0, freedBytes: 0 });
    });
  });

  describe("quota", () => {
    const quotaBytes = 1_000;
    const body400 = (fill: number) => Buffer.alloc(400, fill);

    itWhen("quota")(
      "prunes expired artifacts before older live ones when a put exceeds the quota",
      async () => {
        const clock = createTestClock(START);
        const store = await open(clock, { quotaBytes });
        await store.put(metaFor(testArtifactId(40), body400(1), { createdAt: START }), body400(1));
        await store.put(
          metaFor(testArtifactId(41), body400(2), {
            createdAt: START + 10,
            expiresAt: START + 20,
          }),
          body400(2),
        );
        clock.set(START + 100);
        await store.put(
          metaFor(testArtifactId(42), body400(3), { createdAt: START + 100 }),
          body400(3),
        );
        expect(await liveOf(store, [40, 41, 42].map(testArtifactId))).toEqual([
          testArtifactId(40),
          testArtifactId(42),
        ]);
      },
    );

    itWhen("quota")("prunes the oldest artifacts when nothing is expired", async () => {
      const clock = createTestClock(START);
      const store = await open(clock, { quotaBytes });
      await store.put(metaFor(testArtifactId(43), body400(1), { createdAt: START }), body400(1));
      await store.put(
        metaFor(testArtifactId(44), body400(2), { createdAt: START + 1 }),
        body400(2),
      );
      await store.put(
        metaFor(testArtifactId(45), body400(3), { createdAt: START + 2 }),
        body400(3),
      );
      expect(await liveOf(store, [43, 44, 45].map(testArtifactId))).toEqual([
        testArtifactId(44),
        testArtifactId(45),
      ]);
      expect(await store.head(testArtifactId(43))).toBeNull();
      expect(await store.get(testArtifactId(45))).toEqual({
        meta: metaFor(testArtifactId(45), body400(3), { createdAt: START + 2 }),
        body: body400(3),
      });
    });

    itWhen("quota")(
      "rejects a body larger than the whole quota with QUOTA_EXCEEDED and keeps the rest",
      async () => {
        const clock = createTestClock(START);
        const store = await open(clock, { quotaBytes });
        await store.put(metaFor(testArtifactId(46), body400(1)), body400(1));
        const huge = Buffer.alloc(quotaBytes + 1, 9);
        expect(await rejectionOf(store.put(metaFor(testArtifactId(47), huge), huge))).toEqual({
          name: "StoreError",
          code: "QUOTA_EXCEEDED",
          store: store.name,
          operation: "put",
        });
        expect(await liveOf(store, [46, 47].map(testArtifactId))).toEqual([testArtifactId(46)]);
      },
    );
  });
}
