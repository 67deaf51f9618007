import { describe, expect, it } from "vitest";
import { createTestClock, metaFor, testArtifactId } from "../fixtures.js";
import { rejectionOf, START, type SuiteContext } from "../suite-context.js";

/** The conformance cases of expiry at the exact boundary, sweep, usage, and quota pruning. */
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
        const streamed = await store.getStream(meta.id);
        streamed?.body.resume();
        return {
          get: (await store.get(meta.id)) !== null,
          getStream: streamed !== null,
          head: (await store.head(meta.id)) !== null,
        };
      };
      expect(await readAt(meta.expiresAt - 1)).toEqual({
        get: true,
        getStream: true,
        head: true,
      });
      expect(await readAt(meta.expiresAt)).toEqual({ get: false, getStream: false, head: false });
      expect(await readAt(meta.expiresAt + 1)).toEqual({
        get: false,
        getStream: false,
        head: false,
      });
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
      expect(await store.usage()).toEqual({ count: 1, bytes: 300 });
      expect(await store.head(testArtifactId(23))).not.toBeNull();
    });

    it("sweep() without an argument uses the store's clock", async () => {
      const { store, clock } = await fresh();
      const body = Buffer.alloc(10, 7);
      await store.put(metaFor(testArtifactId(24), body, { expiresAt: START + 50 }), body);
      expect(await store.sweep()).toEqual({ removed: 0, freedBytes: 0 });
      clock.set(START + 50);
      expect(await store.sweep()).toEqual({ removed: 1, freedBytes: 10 });
      expect(await store.usage()).toEqual({ count: 0, bytes: 0 });
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
        expect(await store.usage()).toEqual({ count: 2, bytes: 800 });
        expect([
          await store.head(testArtifactId(40)),
          await store.head(testArtifactId(42)),
        ]).not.toContain(null);
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
      expect(await store.usage()).toEqual({ count: 2, bytes: 800 });
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
        expect(await store.usage()).toEqual({ count: 1, bytes: 400 });
      },
    );
  });
}
