import { createHash } from "node:crypto";
import { readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRecordingStoreLogger,
  createTestClock,
  metaFor,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { createFsStore } from "./fs-store.js";
import { WRITE_OFF_THREAD_MIN_BYTES } from "./write-off-thread.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function freshStore(subfolder = "") {
  const root = await mkdtemp(join(tmpdir(), "fs-staging-"));
  folders.push(root);
  const dir = join(root, subfolder);
  const logger = createRecordingStoreLogger();
  const store = createFsStore({ dir, clock: createTestClock(0), sweepIntervalMs: 0, logger });
  return { dir, store, logger };
}

describe("fs store staging", () => {
  it("writes a body to a temp file before its metadata exists; commit renames it into place", async () => {
    const { dir, store } = await freshStore("not-yet-created");
    const body = Buffer.from('{"items":[1,2,3]}');
    const staged = store.stage(body);
    const meta = metaFor(testArtifactId(1), body);
    expect(await store.get(meta.id)).toBeNull();
    await staged.commit(meta, { sha256FromBody: true });
    expect({ read: await store.get(meta.id), files: await readdir(dir) }).toEqual({
      read: { meta, body },
      files: [`${meta.id}.artifact`],
    });
    await store.dispose();
  });

  it("never serves metadata and body that disagree: reads verify the sha256 from disk", async () => {
    const { store, logger } = await freshStore();
    const body = Buffer.from("[1,2,3]");
    // A digest that does not describe the body stands for a damaged file: a commit told the
    // sha256 is the body's trusts the caller, the read does not.
    const wrong = createHash("sha256").update("[1,2,4]").digest("hex");
    const meta = { ...metaFor(testArtifactId(2), body), sha256: wrong };
    await store.stage(body).commit(meta, { sha256FromBody: true });
    expect({
      get: await store.get(meta.id),
      warnings: logger.lines.map((line) => line.message),
    }).toEqual({ get: null, warnings: ["[stores:fs] get: skipped a damaged artifact file"] });
    await store.dispose();
  });

  it("leaves nothing behind when a staged body is discarded, twice", async () => {
    const { dir, store } = await freshStore();
    const staged = store.stage(Buffer.from("[1]"));
    await staged.discard();
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
    await store.dispose();
  });

  it("removes the staged file when the commit is refused", async () => {
    const { dir, store } = await freshStore();
    const body = Buffer.from("[1,2]");
    const wrongLength = { ...metaFor(testArtifactId(3), body), byteLength: 99 };
    const refused = await store
      .stage(body)
      .commit(wrongLength)
      .catch((error: unknown) => error);
    expect(StoreError.isInstance(refused) && refused.code).toBe("INVALID_META");
    expect(await readdir(dir)).toEqual([]);
    await store.dispose();
  });

  it("discards what is still staged when the store is disposed", async () => {
    const { dir, store } = await freshStore();
    store.stage(Buffer.alloc(1024 * 1024, 7));
    await store.dispose();
    expect(await readdir(dir)).toEqual([]);
  });

  it("writes a staged body while the caller's thread stays busy, once the folder is prepared", async () => {
    const { dir, store } = await freshStore();
    // Any read waits for the folder to be prepared.
    expect(await store.head(testArtifactId(4))).toBeNull();
    const body = Buffer.alloc(4 * 1024 * 1024, 7);
    const staged = store.stage(body);
    // The temp file exists before the event loop runs again, and its bytes arrive while this
    // thread never yields (as while the bounder parses the payload): the thread pool writes them.
    // Before, the file was opened by the event loop, so nothing was written until the thread
    // yielded: this loop would end after its 2000 pauses with an empty file, or find no file.
    const [temp = "none"] = readdirSync(dir);
    expect(temp).toMatch(/^\.tmp-.*-staged-/);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const sizeNow = () => statSync(join(dir, temp)).size;
    for (let pauses = 0; pauses < 2000 && sizeNow() < body.length; pauses++) {
      Atomics.wait(pause, 0, 0, 5);
    }
    expect(sizeNow()).toBe(body.length);
    const meta = metaFor(testArtifactId(4), body);
    await staged.commit(meta, { sha256FromBody: true });
    const read = await store.get(meta.id);
    expect({
      meta: read !== null && "meta" in read ? read.meta : read,
      sameBody: read !== null && "body" in read && Buffer.from(read.body).equals(body),
      files: await readdir(dir),
    }).toEqual({ meta, sameBody: true, files: [`${meta.id}.artifact`] });
    await store.dispose();
  });

  it("stores the same id again over its previous file and leaves no second name behind once disposed", async () => {
    const { dir, store } = await freshStore();
    const body = Buffer.from('{"again":true}');
    const first = metaFor(testArtifactId(5), body);
    await store.stage(body).commit(first, { sha256FromBody: true });
    const second = { ...first, createdAt: first.createdAt + 1, expiresAt: first.expiresAt + 1 };
    await store.stage(body).commit(second, { sha256FromBody: true });
    const read = await store.get(first.id);
    await store.dispose();
    expect({ read, files: await readdir(dir) }).toEqual({
      read: { meta: second, body },
      files: [`${first.id}.artifact`],
    });
  });

  it("stores a large shared body staged after its folder was removed (the body is kept then)", async () => {
    const { dir, store } = await freshStore("removed");
    await store.sweep();
    rmSync(dir, { recursive: true, force: true });
    const body = Buffer.from(new SharedArrayBuffer(WRITE_OFF_THREAD_MIN_BYTES));
    body.fill("a");
    const meta = metaFor(testArtifactId(9), body);
    await store.stage(body).commit(meta, { sha256FromBody: true });
    const read = await store.get(meta.id);
    expect({
      sha256: read !== null && "body" in read ? sha256(read.body) : null,
      files: await readdir(dir),
    }).toEqual({ sha256: sha256(body), files: [`${meta.id}.artifact`] });
    await store.dispose();
  });

  it("writes a large shared body with writeLargeBody when given (no thread of its own), and with its own thread when that declines or throws", async () => {
    const root = await mkdtemp(join(tmpdir(), "fs-staging-"));
    folders.push(root);
    const calls: number[] = [];
    let decline: false | "undefined" | "throw" = false;
    const store = createFsStore({
      dir: root,
      clock: createTestClock(0),
      sweepIntervalMs: 0,
      // A writer on this thread, for the test: what the bounder's hashing thread does off it.
      writeLargeBody: (fd, bytes) => {
        calls.push(bytes.byteLength);
        if (decline === "throw") throw new Error("no thread for this one");
        if (decline === "undefined") return undefined;
        for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at);
        return Promise.resolve();
      },
    });
    await store.sweep();
    let threads = 0;
    const countThread = () => {
      threads += 1;
    };
    process.on("worker", countThread);
    try {
      const read = [];
      for (const [index, declined] of ([false, "undefined", "throw"] as const).entries()) {
        decline = declined;
        const body = Buffer.from(new SharedArrayBuffer(WRITE_OFF_THREAD_MIN_BYTES + index));
        for (let i = 0; i < body.length; i++) body[i] = (i * 31 + index) % 251;
        const meta = metaFor(testArtifactId(20 + index), body);
        await store.stage(body).commit(meta, { sha256FromBody: true });
        const got = await store.get(meta.id);
        read.push(got !== null && "body" in got && got.body.equals(body));
        // The thread started for the declined write: process emits "worker" on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
        if (index === 0) expect(threads).toBe(0);
      }
      expect({ calls, read, threads }).toEqual({
        calls: [0, 1, 2].map((index) => WRITE_OFF_THREAD_MIN_BYTES + index),
        read: [true, true, true],
        threads: 2,
      });
    } finally {
      process.off("worker", countThread);
      await store.dispose();
    }
  });
});
