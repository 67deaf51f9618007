import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestClock, metaFor, testArtifactId } from "@bounded-mcp/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { createFsStore } from "./fs-store.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function freshStore(subfolder = "") {
  const root = await mkdtemp(join(tmpdir(), "fs-staged-put-"));
  folders.push(root);
  const dir = join(root, subfolder);
  return { dir, store: createFsStore({ dir, clock: createTestClock(0), sweepIntervalMs: 0 }) };
}

describe("fs store stage", () => {
  it("writes a body before its metadata exists; the put that follows makes it visible", async () => {
    const { dir, store } = await freshStore("not-yet-created");
    const body = Buffer.from('{"items":[1,2,3]}');
    const staged = store.stage?.(body);
    expect(staged).toBeDefined();
    const meta = metaFor(testArtifactId(1), body);
    expect(await store.get(meta.id)).toBeNull();
    await store.put(meta, body, { staged, sha256Computed: true, handOver: true });
    expect({ read: await store.get(meta.id), files: await readdir(dir) }).toEqual({
      read: { meta, body },
      files: [`${meta.id}.artifact`],
    });
    await store.dispose();
  });

  it("leaves nothing behind when a staged body is discarded, twice", async () => {
    const { dir, store } = await freshStore();
    const staged = store.stage?.(Buffer.from("[1]"));
    await staged?.discard();
    await staged?.discard();
    expect(await readdir(dir)).toEqual([]);
    await store.dispose();
  });

  it("writes the bytes put was given, never a staged body of other bytes", async () => {
    const { dir, store } = await freshStore();
    const staged = store.stage?.(Buffer.from('"staged"'));
    const body = Buffer.from('"given"');
    const meta = metaFor(testArtifactId(2), body);
    await store.put(meta, body, { staged });
    expect({ read: await store.get(meta.id), files: await readdir(dir) }).toEqual({
      read: { meta, body },
      files: [`${meta.id}.artifact`],
    });
    await store.dispose();
  });

  it("removes the staged file when the put is refused", async () => {
    const { dir, store } = await freshStore();
    const body = Buffer.from("[1,2]");
    const staged = store.stage?.(body);
    const wrongLength = { ...metaFor(testArtifactId(3), body), byteLength: 99 };
    const refused = await store.put(wrongLength, body, { staged }).catch((error) => error);
    expect(StoreError.isInstance(refused) && refused.code).toBe("INVALID_META");
    expect(await readdir(dir)).toEqual([]);
    await store.dispose();
  });

  it("discards what is still staged when the store is disposed", async () => {
    const { dir, store } = await freshStore();
    store.stage?.(Buffer.alloc(1024 * 1024, 7));
    await store.dispose();
    expect(await readdir(dir)).toEqual([]);
  });
});
