import { describe, expect, it } from "vitest";
import { StoreError } from "../../store-error.js";
import type { ArtifactMeta } from "../../types.js";
import { metaFor, patternBody, sha256Of, testArtifactId } from "../fixtures.js";
import { metaOf, START, type SuiteContext, storedOf } from "../suite-context.js";

/** The conformance cases of concurrent writers and readers, of distinct ids and of one id. */
export function describeConcurrencyCases(context: SuiteContext): void {
  const { fresh, concurrency, slowTimeout } = context;
  describe("concurrency", () => {
    it(
      `serves ${concurrency} concurrent writers and ${concurrency} readers of distinct ids`,
      async () => {
        const { store } = await fresh();
        const artifacts = Array.from({ length: concurrency }, (_, index) => {
          const body = patternBody(512 + index * 131, index + 1);
          return { meta: metaFor(testArtifactId(100 + index), body), body };
        });
        const reads = await Promise.all(
          artifacts.flatMap(({ meta, body }) => [
            store.put(meta, body).then(() => "written"),
            store.get(meta.id).then((found) => {
              const read = storedOf(found);
              return found === null || (read?.body.equals(body) && read.meta.sha256 === meta.sha256)
                ? "consistent"
                : "torn";
            }),
          ]),
        );
        expect(reads.filter((read) => read === "torn")).toEqual([]);
        // Bodies are compared by length and sha256: deep equality of Buffers is slow.
        const summary = (meta: ArtifactMeta, body: Buffer) => ({
          meta,
          body: { bytes: body.byteLength, sha256: sha256Of(body) },
        });
        const afterwards = await Promise.all(
          artifacts.map(async ({ meta }) => {
            const read = storedOf(await store.get(meta.id));
            return read ? summary(read.meta, read.body) : null;
          }),
        );
        expect(afterwards).toEqual(artifacts.map(({ meta, body }) => summary(meta, body)));
      },
      slowTimeout,
    );

    it(
      `never serves a torn artifact while ${concurrency} writers replace one id and ${concurrency} readers read it`,
      async () => {
        const { store } = await fresh();
        const id = testArtifactId(200);
        const versions = Array.from({ length: concurrency }, (_, index) => {
          const body = patternBody(2_048 + index * 977, index + 100);
          return { meta: metaFor(id, body, { createdAt: START + index }), body };
        });
        const written = new Map(versions.map((version) => [version.meta.sha256, version]));
        const isWrittenVersion = (meta: ArtifactMeta, body?: Buffer): boolean => {
          const version = written.get(meta.sha256);
          if (version === undefined) return false;
          const metaMatches = JSON.stringify(version.meta) === JSON.stringify(meta);
          return metaMatches && (body === undefined || version.body.equals(body));
        };
        // A backend may refuse a read under contention (s3rver answers 500 while it rewrites a
        // key); what no store may do is hand out metadata and a body that do not belong together.
        const classify = async (read: () => Promise<boolean>): Promise<string> => {
          try {
            return (await read()) ? "consistent" : "torn";
          } catch (error) {
            return StoreError.isInstance(error) && error.code === "STORE_UNAVAILABLE"
              ? "refused"
              : `failed: ${String(error)}`;
          }
        };
        const outcomes = await Promise.all(
          versions.flatMap((version) => [
            store.put(version.meta, version.body).then(() => "written"),
            classify(async () => {
              const found = await store.get(id);
              const read = storedOf(found);
              return found === null || (read !== null && isWrittenVersion(read.meta, read.body));
            }),
            classify(async () => {
              const found = await store.head(id);
              const meta = metaOf(found);
              return found === null || (meta !== null && isWrittenVersion(meta));
            }),
          ]),
        );
        const allowed = new Set(["written", "consistent", "refused"]);
        expect(outcomes.filter((outcome) => !allowed.has(outcome))).toEqual([]);
        const last = versions[0] as (typeof versions)[number];
        await store.put(last.meta, last.body);
        expect(await store.get(id)).toEqual(last);
      },
      slowTimeout,
    );
  });
}
