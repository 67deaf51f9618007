import { describe, expect, it } from "vitest";
import { binaryBody, metaFor, patternBody, sha256Of, testArtifactId } from "../fixtures.js";
import { MIB, metaOf, rejectionOf, type SuiteContext, storedOf } from "../suite-context.js";

/** The conformance cases of round trips, head, unknown ids, and metadata that disagrees with its body. */
export function describeRoundTripCases(context: SuiteContext): void {
  const { fresh, largeBodyBytes, slowTimeout } = context;
  describe("round trip", () => {
    it("returns a binary-safe body (every byte value) with its metadata from get", async () => {
      const { store } = await fresh();
      const body = binaryBody();
      const meta = metaFor(testArtifactId(1), body);
      await store.put(meta, body);
      expect(await store.get(meta.id)).toEqual({ meta, body });
    });

    it("round-trips a unicode body and unicode metadata", async () => {
      const { store } = await fresh();
      const body = Buffer.from('{"名前":"Zoë 🚀","ملاحظة":"e\u0301","emoji":"👩‍👩‍👧"}', "utf8");
      const meta = metaFor(testArtifactId(2), body, {
        mediaType: "text/plain",
        scopeHash: "scope-ünïcödé-名前",
        responseRoot: "/données/名前",
        primaryPaths: ["/données/名前/0", "/emoji/👩‍👩‍👧", "/a~1b/c~0d", "/with space/and%percent"],
        sourceTruncated: true,
      });
      await store.put(meta, body);
      const stored = storedOf(await store.get(meta.id));
      expect(stored).toEqual({ meta, body });
      expect(stored?.body.toString("utf8")).toBe(body.toString("utf8"));
    });

    it("round-trips bodyEncoding and exactCandidates (true, false, absent) through get and head", async () => {
      const { store } = await fresh();
      const json = Buffer.from('{"id":12345678901234567890}');
      const plain = Buffer.from('{"id":1}');
      const text = Buffer.from('"a\\ud800b"');
      const metas = [
        metaFor(testArtifactId(12), json, { exactCandidates: true }),
        metaFor(testArtifactId(13), plain, { exactCandidates: false }),
        metaFor(testArtifactId(14), plain),
        metaFor(testArtifactId(15), text, { mediaType: "text/plain", bodyEncoding: "json-string" }),
      ];
      const bodies = [json, plain, plain, text];
      for (const [at, meta] of metas.entries()) await store.put(meta, bodies[at] as Buffer);
      const read = [];
      for (const meta of metas) {
        const stored = storedOf(await store.get(meta.id));
        read.push({
          get: stored?.meta,
          head: metaOf(await store.head(meta.id)),
          body: stored?.body,
        });
      }
      // Strict: an absent member stays absent (not `undefined`), a present one keeps its value.
      expect(read.map(({ get, head }) => ({ get, head }))).toStrictEqual(
        metas.map((meta) => ({ get: meta, head: meta })),
      );
      expect(read.map(({ body }) => body)).toEqual(bodies);
    });

    it("round-trips a 0-byte body", async () => {
      const { store } = await fresh();
      const body = Buffer.alloc(0);
      const meta = metaFor(testArtifactId(3), body);
      await store.put(meta, body);
      expect(await store.get(meta.id)).toEqual({ meta, body });
      expect(await store.head(meta.id)).toEqual(meta);
    });

    it(
      `round-trips a ${largeBodyBytes / MIB} MiB body through get`,
      async () => {
        const { store } = await fresh();
        const body = patternBody(largeBodyBytes, 7);
        const meta = metaFor(testArtifactId(4), body);
        await store.put(meta, body);
        const stored = storedOf(await store.get(meta.id));
        expect(stored?.meta).toEqual(meta);
        expect(stored ? sha256Of(stored.body) : null).toBe(meta.sha256);
        expect(stored?.body.byteLength).toBe(largeBodyBytes);
      },
      slowTimeout,
    );

    it("replaces an artifact put again under the same id", async () => {
      const { store } = await fresh();
      const first = Buffer.from('{"version":1}');
      const second = Buffer.from('{"version":2,"longer":true}');
      await store.put(metaFor(testArtifactId(5), first), first);
      const replacement = metaFor(testArtifactId(5), second, { createdAt: 2_000 });
      await store.put(replacement, second);
      expect(await store.get(replacement.id)).toEqual({ meta: replacement, body: second });
    });

    it("keeps its copy: changing the put or returned body or metadata changes nothing stored", async () => {
      const { store } = await fresh();
      const body = Buffer.from('{"keep":"me"}');
      const meta = metaFor(testArtifactId(6), body);
      const putBody = Buffer.from(body);
      const putMeta = metaFor(testArtifactId(6), body);
      await store.put(putMeta, putBody);
      putBody.fill(0);
      putMeta.primaryPaths.push("/changed");
      putMeta.expiresAt = 0;
      const first = storedOf(await store.get(meta.id));
      first?.body.fill(0);
      first?.meta.primaryPaths.push("/changed");
      expect(await store.get(meta.id)).toEqual({ meta, body });
    });
  });

  describe("head and unknown ids", () => {
    it("head returns the metadata without a body", async () => {
      const { store } = await fresh();
      const body = Buffer.from('{"a":1}');
      const meta = metaFor(testArtifactId(10), body);
      await store.put(meta, body);
      expect(await store.head(meta.id)).toEqual(meta);
    });

    it("get and head return null for an unknown id", async () => {
      const { store } = await fresh();
      const id = testArtifactId(11);
      expect([await store.get(id), await store.head(id)]).toEqual([null, null]);
    });
  });

  describe("metadata and body never disagree", () => {
    it("rejects a put whose byteLength or sha256 does not describe the body, storing nothing", async () => {
      const { store } = await fresh();
      const body = Buffer.from('{"honest":false}');
      const wrongLength = {
        ...metaFor(testArtifactId(30), body),
        byteLength: body.byteLength + 1,
      };
      const wrongHash = {
        ...metaFor(testArtifactId(30), body),
        sha256: sha256Of(Buffer.from("x")),
      };
      const expected = {
        name: "StoreError",
        code: "INVALID_META",
        store: store.name,
        operation: "put",
      };
      expect(await rejectionOf(store.put(wrongLength, body))).toEqual(expected);
      expect(await rejectionOf(store.put(wrongHash, body))).toEqual(expected);
      expect([await store.head(testArtifactId(30)), await store.get(testArtifactId(30))]).toEqual([
        null,
        null,
      ]);
    });
  });
}
