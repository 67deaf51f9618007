import { describe, expect } from "vitest";
import { canStage } from "../../capabilities.js";
import type { ArtifactStore, StagingArtifactStore } from "../../types.js";
import { metaFor, patternBody, sha256Of, testArtifactId } from "../fixtures.js";
import { rejectionOf, type SuiteContext, storedOf } from "../suite-context.js";

/** The store as a StagingArtifactStore; fails the case when it declares staging without stage(). */
function staging(store: ArtifactStore): StagingArtifactStore {
  if (!canStage(store)) throw new Error(`${store.name} declares "staging" but has no stage()`);
  return store;
}

/** The conformance cases of the `staging` capability: stage, commit once, discard, dispose. */
export function describeStagingCases(context: SuiteContext): void {
  const { fresh, itWhen } = context;
  const itStaging = itWhen("staging");
  describe("staging", () => {
    itStaging("commit makes a staged body visible with its metadata, hashed or not", async () => {
      const store = staging((await fresh()).store);
      const checked = Buffer.from('{"staged":"checked"}');
      const trusted = patternBody(3 * 1024 * 1024 + 5, 3);
      const checkedMeta = metaFor(testArtifactId(700), checked);
      const trustedMeta = metaFor(testArtifactId(701), trusted);
      const first = store.stage(checked);
      const second = store.stage(trusted);
      expect(await store.head(checkedMeta.id)).toBeNull();
      await first.commit(checkedMeta);
      await second.commit(trustedMeta, { sha256FromBody: true });
      await first.discard();
      const read = storedOf(await store.get(trustedMeta.id));
      expect({
        checked: await store.get(checkedMeta.id),
        trusted: read && { meta: read.meta, sha256: sha256Of(read.body) },
      }).toEqual({
        checked: { meta: checkedMeta, body: checked },
        trusted: { meta: trustedMeta, sha256: trustedMeta.sha256 },
      });
    });

    itStaging("a discarded body is never stored, and commit after discard rejects", async () => {
      const store = staging((await fresh()).store);
      const body = Buffer.from("[1,2,3]");
      const meta = metaFor(testArtifactId(702), body);
      const staged = store.stage(body);
      await staged.discard();
      await expect(staged.discard()).resolves.toBeUndefined();
      expect(await rejectionOf(staged.commit(meta))).toEqual({
        name: "StoreError",
        code: "STORE_UNAVAILABLE",
        store: store.name,
        operation: "commit",
      });
      expect(await store.head(meta.id)).toBeNull();
    });

    itStaging("commit checks metadata against the staged body, and commits only once", async () => {
      const store = staging((await fresh()).store);
      const body = Buffer.from('{"honest":"maybe"}');
      const wrongLength = {
        ...metaFor(testArtifactId(703), body),
        byteLength: body.byteLength + 1,
      };
      const wrongHash = {
        ...metaFor(testArtifactId(704), body),
        sha256: sha256Of(Buffer.from("x")),
      };
      const invalid = (operation: string) => ({
        name: "StoreError",
        code: "INVALID_META",
        store: store.name,
        operation,
      });
      const results = {
        wrongLength: await rejectionOf(
          store.stage(body).commit(wrongLength, { sha256FromBody: true }),
        ),
        wrongHash: await rejectionOf(store.stage(body).commit(wrongHash)),
      };
      expect(results).toEqual({ wrongLength: invalid("put"), wrongHash: invalid("put") });
      expect([await store.head(wrongLength.id), await store.head(wrongHash.id)]).toEqual([
        null,
        null,
      ]);
      const meta = metaFor(testArtifactId(705), body);
      const staged = store.stage(body);
      await staged.commit(meta);
      expect(await rejectionOf(staged.commit(meta))).toEqual({
        name: "StoreError",
        code: "STORE_UNAVAILABLE",
        store: store.name,
        operation: "commit",
      });
      expect(await store.get(meta.id)).toEqual({ meta, body });
    });

    itStaging("dispose discards what is staged; a commit afterwards rejects", async () => {
      const store = staging((await fresh()).store);
      const body = patternBody(1024 * 1024, 9);
      const staged = store.stage(body);
      await store.dispose();
      expect(await rejectionOf(staged.commit(metaFor(testArtifactId(706), body)))).toEqual({
        name: "StoreError",
        code: "STORE_UNAVAILABLE",
        store: store.name,
        operation: "commit",
      });
      await expect(staged.discard()).resolves.toBeUndefined();
    });
  });
}
