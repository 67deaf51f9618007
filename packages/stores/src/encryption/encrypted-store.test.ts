import { mkdtempSync, rmSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRecordingStoreLogger,
  createTestClock,
  metaFor,
  runStoreConformanceSuite,
  sha256Of,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createFsStore } from "../fs/fs-store.js";
import { createMemoryStore } from "../memory/memory-store.js";
import type { ArtifactStore } from "../types.js";
import { createEncryptedStore } from "./encrypted-store.js";
import { testKeys } from "./test-keys.js";

const root = mkdtempSync(join(tmpdir(), "bounded-mcp-encrypted-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Wrapped stores run the whole suite; 16 MiB keeps the large-body case meaningful (64 chunks)
// without doubling the package's test time.
const WRAPPED_SUITE = { largeBodyBytes: 16 * 1024 * 1024 };

runStoreConformanceSuite(
  "encrypted memory",
  async ({ clock, quotaBytes }) =>
    createEncryptedStore({
      store: createMemoryStore({
        clock,
        ...(quotaBytes === undefined ? {} : { maxBytes: quotaBytes }),
      }),
      keys: testKeys("a"),
    }),
  {
    ...WRAPPED_SUITE,
    capabilities: { persistent: false, shared: false, quota: true, staging: true },
  },
);

runStoreConformanceSuite(
  "encrypted fs",
  async ({ clock, location, quotaBytes }) =>
    createEncryptedStore({
      store: createFsStore({
        dir: join(root, "suite", location),
        clock,
        sweepIntervalMs: 0,
        ...(quotaBytes === undefined ? {} : { quotaBytes }),
      }),
      keys: testKeys("a"),
    }),
  {
    ...WRAPPED_SUITE,
    capabilities: { persistent: true, shared: true, quota: true, staging: true },
  },
);

const SECRET = "sk-live-4f1c9e22-never-on-disk";
const PATH_SECRET = "acct-7731-private-field";
/** A payload holding the secret, with preview inputs (paths) that name another one. */
const secretArtifact = (number: number, overrides: Parameters<typeof metaFor>[2] = {}) => {
  const body = Buffer.from(JSON.stringify({ [PATH_SECRET]: [{ token: SECRET }] }));
  const meta = metaFor(testArtifactId(number), body, {
    responseRoot: `/${PATH_SECRET}`,
    primaryPaths: [`/${PATH_SECRET}`, `/${PATH_SECRET}/0/token`],
    ...overrides,
  });
  return { meta, body };
};

let folderCounter = 0;
const freshDir = () => {
  folderCounter += 1;
  return join(root, "own", `case-${folderCounter}`);
};
const fsStore = (dir: string, clock = createTestClock(10_000)) =>
  createFsStore({ dir, clock, sweepIntervalMs: 0 });

/** Every byte of every file in `dir`, as latin1 text (a byte-exact grep). */
async function rawFolder(dir: string): Promise<string> {
  const names = await readdir(dir);
  const files = await Promise.all(names.map((name) => readFile(join(dir, name))));
  return files.map((file) => file.toString("latin1")).join("\n");
}

describe("createEncryptedStore over the fs store", () => {
  it("leaves neither the payload nor its preview inputs in the file, and reads them back", async () => {
    const dir = freshDir();
    const store = createEncryptedStore({ store: fsStore(dir), keys: testKeys("a") });
    const { meta, body } = secretArtifact(1);
    await store.put(meta, body);
    const raw = await rawFolder(dir);
    expect({
      payload: raw.includes(SECRET),
      paths: raw.includes(PATH_SECRET),
      sha256: raw.includes(meta.sha256),
      id: raw.includes(meta.id),
    }).toEqual({ payload: false, paths: false, sha256: false, id: true });
    expect(await store.get(meta.id)).toEqual({ meta, body });
    expect(await store.head(meta.id)).toEqual(meta);
    await store.dispose();
  });

  it("(control) the plain fs store does keep both in clear, so the check above can fail", async () => {
    const dir = freshDir();
    const store = fsStore(dir);
    const { meta, body } = secretArtifact(2);
    await store.put(meta, body);
    const raw = await rawFolder(dir);
    expect([raw.includes(SECRET), raw.includes(PATH_SECRET)]).toEqual([true, true]);
    await store.dispose();
  });

  it("seals a staged body too (the write still starts at stage)", async () => {
    const dir = freshDir();
    const store = createEncryptedStore({ store: fsStore(dir), keys: testKeys("a") });
    const { meta, body } = secretArtifact(3);
    if (!("stage" in store) || typeof store.stage !== "function") throw new Error("no staging");
    await store.stage(body).commit(meta, { sha256FromBody: true });
    const raw = await rawFolder(dir);
    expect([raw.includes(SECRET), raw.includes(PATH_SECRET)]).toEqual([false, false]);
    expect(await store.get(meta.id)).toEqual({ meta, body });
    await store.dispose();
  });

  it("is swept by a store without keys: expiry, ids and sizes stay readable", async () => {
    const dir = freshDir();
    const clock = createTestClock(10_000);
    const store = createEncryptedStore({ store: fsStore(dir, clock), keys: testKeys("a") });
    const expiring = secretArtifact(4, { createdAt: 10_000, expiresAt: 20_000 });
    const living = secretArtifact(5, { createdAt: 10_000, expiresAt: 90_000 });
    await store.put(expiring.meta, expiring.body);
    await store.put(living.meta, living.body);
    await store.dispose();
    const keyless = fsStore(dir, createTestClock(30_000));
    const swept = await keyless.sweep();
    expect({
      removed: swept.removed,
      files: (await readdir(dir)).sort(),
      expired: await keyless.head(expiring.meta.id),
    }).toEqual({
      removed: 1,
      files: [`${living.meta.id}.artifact`],
      expired: {
        expired: true,
        id: expiring.meta.id,
        scopeHash: expiring.meta.scopeHash,
        expiresAt: 20_000,
      },
    });
    await keyless.dispose();
  });

  it("reads a file with one flipped payload byte as unknown, and logs it", async () => {
    const dir = freshDir();
    const logger = createRecordingStoreLogger();
    const store = createEncryptedStore({ store: fsStore(dir), keys: testKeys("a"), logger });
    const { meta, body } = secretArtifact(6);
    await store.put(meta, body);
    const file = join(dir, `${meta.id}.artifact`);
    const bytes = await readFile(file);
    bytes[30] = (bytes[30] as number) ^ 0x01;
    await writeFile(file, bytes);
    expect([await store.get(meta.id), await store.head(meta.id)]).toEqual([null, meta]);
    await store.dispose();
  });
});

/** The sealed bytes and clear metadata the backend holds for `id`. */
async function sealedOf(backend: ArtifactStore, id: string) {
  const found = await backend.get(id);
  if (found === null || "expired" in found) throw new Error("not stored");
  return found;
}

describe("createEncryptedStore key rotation and damage", () => {
  const { meta, body } = secretArtifact(20);

  it("reads what key A sealed with the ring [B, A], and seals new artifacts with B", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    await createEncryptedStore({ store: backend, keys: testKeys("A") }).put(meta, body);
    const rotated = createEncryptedStore({ store: backend, keys: testKeys("B", "A") });
    expect(await rotated.get(meta.id)).toEqual({ meta, body });
    const next = secretArtifact(21);
    await rotated.put(next.meta, next.body);
    const onlyB = createEncryptedStore({ store: backend, keys: testKeys("B") });
    expect(await onlyB.get(next.meta.id)).toEqual(next);
  });

  it("reads what key A sealed as unknown with the ring [B] only, and logs why", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    await createEncryptedStore({ store: backend, keys: testKeys("A") }).put(meta, body);
    const logger = createRecordingStoreLogger();
    const onlyB = createEncryptedStore({ store: backend, keys: testKeys("B"), logger });
    expect([await onlyB.get(meta.id), await onlyB.head(meta.id)]).toEqual([null, null]);
    expect(logger.lines).toEqual([
      {
        message:
          "[stores:memory] an encrypted artifact reads as unknown: no listed key has its kid (the key was retired or belongs to another ring)",
        fields: { artifactId: meta.id, reason: "unknown_key" },
      },
      {
        message:
          "[stores:memory] an encrypted artifact reads as unknown: no listed key has its kid (the key was retired or belongs to another ring)",
        fields: { artifactId: meta.id, reason: "unknown_key" },
      },
    ]);
  });

  it("reads a sealed body with one flipped ciphertext byte as unknown (the tag fails)", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    const logger = createRecordingStoreLogger();
    const store = createEncryptedStore({ store: backend, keys: testKeys("A"), logger });
    await store.put(meta, body);
    const sealed = await sealedOf(backend, meta.id);
    const flipped = Buffer.from(sealed.body);
    flipped[flipped.byteLength - 20] = (flipped[flipped.byteLength - 20] as number) ^ 0x80;
    // Re-put with honest clear metadata for the flipped bytes: only the GCM tag can notice.
    await backend.put({ ...sealed.meta, sha256: sha256Of(flipped) }, flipped);
    expect(await store.get(meta.id)).toBeNull();
    expect(logger.lines.map((line) => line.fields?.reason)).toEqual(["damaged"]);
  });

  it("reads an artifact whose clear expiry was extended as unknown", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    const store = createEncryptedStore({ store: backend, keys: testKeys("A") });
    await store.put(meta, body);
    const sealed = await sealedOf(backend, meta.id);
    await backend.put({ ...sealed.meta, expiresAt: sealed.meta.expiresAt + 1 }, sealed.body);
    expect([await store.get(meta.id), await store.head(meta.id)]).toEqual([null, null]);
  });

  it("keeps bodyEncoding and exactCandidates sealed: a clear one added in the backend is not trusted", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    const store = createEncryptedStore({ store: backend, keys: testKeys("A") });
    const verdicted = { ...meta, exactCandidates: true };
    const unverdicted = { ...meta, id: testArtifactId(23) };
    await store.put(verdicted, body);
    await store.put(unverdicted, body);
    const sealed = [await sealedOf(backend, verdicted.id), await sealedOf(backend, unverdicted.id)];
    expect(sealed.map((found) => "exactCandidates" in found.meta)).toEqual([false, false]);
    for (const found of sealed) {
      await backend.put(
        { ...found.meta, exactCandidates: false, bodyEncoding: "json-string" },
        found.body,
      );
    }
    expect([await store.head(verdicted.id), await store.head(unverdicted.id)]).toStrictEqual([
      verdicted,
      unverdicted,
    ]);
  });

  it("reads an artifact moved to another id as unknown", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    const store = createEncryptedStore({ store: backend, keys: testKeys("A") });
    await store.put(meta, body);
    const sealed = await sealedOf(backend, meta.id);
    const other = testArtifactId(22);
    await backend.put({ ...sealed.meta, id: other }, sealed.body);
    expect(await store.get(other)).toBeNull();
  });

  it("reads an artifact sealed by another key under the same kid as unknown", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    await createEncryptedStore({ store: backend, keys: testKeys("A") }).put(meta, body);
    const impostor = createEncryptedStore({ store: backend, keys: testKeys("B") });
    const renamed = {
      ...testKeys("B"),
      encryptingKid: "A",
      kids: ["A"],
      key: () => testKeys("B").key("B"),
    };
    expect(await createEncryptedStore({ store: backend, keys: renamed }).get(meta.id)).toBeNull();
    expect(await impostor.get(meta.id)).toBeNull();
  });

  it("reads an artifact stored without encryption as unknown, and logs it", async () => {
    const backend = createMemoryStore({ clock: createTestClock(10_000) });
    await backend.put(meta, body);
    const logger = createRecordingStoreLogger();
    const store = createEncryptedStore({ store: backend, keys: testKeys("A"), logger });
    expect(await store.get(meta.id)).toBeNull();
    expect(logger.lines.map((line) => line.fields?.reason)).toEqual(["not_sealed"]);
  });

  it("passes expired artifacts through without opening them", async () => {
    const clock = createTestClock(10_000);
    const backend = createMemoryStore({ clock });
    const store = createEncryptedStore({ store: backend, keys: testKeys("A") });
    const expiring = secretArtifact(23, { createdAt: 10_000, expiresAt: 20_000 });
    await store.put(expiring.meta, expiring.body);
    clock.set(20_000);
    const expired = {
      expired: true,
      id: expiring.meta.id,
      scopeHash: expiring.meta.scopeHash,
      expiresAt: 20_000,
    };
    const keyless = createEncryptedStore({ store: backend, keys: testKeys("Z") });
    expect([await keyless.get(expiring.meta.id), await keyless.head(expiring.meta.id)]).toEqual([
      expired,
      expired,
    ]);
  });
});
