import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, open, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRecordingStoreLogger,
  createTestClock,
  metaFor,
  runStoreConformanceSuite,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { StoreError } from "../store-error.js";
import { createFsStore } from "./fs-store.js";

const root = mkdtempSync(join(tmpdir(), "bounded-mcp-fs-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStoreConformanceSuite(
  "fs",
  async ({ clock, location, quotaBytes }) =>
    createFsStore({
      dir: join(root, "suite", location),
      clock,
      sweepIntervalMs: 0,
      ...(quotaBytes === undefined ? {} : { quotaBytes }),
    }),
  { capabilities: { persistent: true, shared: true, quota: true, staging: true } },
);

/** A store over its own folder, with a clock inside the fixtures' default lifetime. */
const openStore = (dir: string, options: Omit<Parameters<typeof createFsStore>[0], "dir"> = {}) =>
  createFsStore({ dir, sweepIntervalMs: 0, clock: createTestClock(10_000), ...options });

let folderCounter = 0;
const freshDir = () => {
  folderCounter += 1;
  return join(root, "own", `case-${folderCounter}`);
};

describe("createFsStore", () => {
  it("creates a missing folder and its parents 0700 and writes artifact files 0600", async () => {
    const dir = join(freshDir(), "nested", "artifacts");
    const store = openStore(dir);
    const body = Buffer.from('{"private":true}');
    await store.put(metaFor(testArtifactId(1), body), body);
    const modes = {
      folder: (await stat(dir)).mode & 0o777,
      parent: (await stat(join(dir, ".."))).mode & 0o777,
      files: await Promise.all(
        (await readdir(dir)).map(async (name) => (await stat(join(dir, name))).mode & 0o777),
      ),
    };
    expect(modes).toEqual({ folder: 0o700, parent: 0o700, files: [0o600] });
    await store.dispose();
  });

  it("keeps metadata and body in one file named after the id, and nothing else", async () => {
    const dir = freshDir();
    const store = openStore(dir);
    const body = Buffer.from('{"one":"file"}');
    await store.put(metaFor(testArtifactId(2), body), body);
    expect(await readdir(dir)).toEqual([`${testArtifactId(2)}.artifact`]);
    await store.dispose();
  });

  it("never serves a truncated file (a write that did not complete) and reports it", async () => {
    const dir = freshDir();
    const logger = createRecordingStoreLogger();
    const store = openStore(dir, { logger });
    const body = Buffer.alloc(4_096, 5);
    const meta = metaFor(testArtifactId(3), body);
    await store.put(meta, body);
    const path = join(dir, `${meta.id}.artifact`);
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, whole.byteLength - 100));
    expect([await store.get(meta.id), await store.head(meta.id)]).toEqual([null, null]);
    expect(logger.lines.map((line) => line.message)).toEqual([
      "[stores:fs] get: skipped a damaged artifact file",
      "[stores:fs] head: skipped a damaged artifact file",
    ]);
    await store.dispose();
  });

  it("never serves a body whose bytes changed on disk and reports it", async () => {
    const dir = freshDir();
    const logger = createRecordingStoreLogger();
    const store = openStore(dir, { logger });
    const body = Buffer.alloc(200_000, 7);
    const meta = metaFor(testArtifactId(4), body);
    await store.put(meta, body);
    const handle = await open(join(dir, `${meta.id}.artifact`), "r+");
    // The body comes first in the file: change its last byte.
    await handle.write(Buffer.from([8]), 0, 1, body.byteLength - 1);
    await handle.close();
    expect(await store.get(meta.id)).toBeNull();
    expect(logger.lines.map((line) => line.message)).toEqual([
      "[stores:fs] get: skipped a damaged artifact file",
    ]);
    await store.dispose();
  });

  it("ignores temp files and foreign files; sweep removes temp files older than an hour and damaged files", async () => {
    const dir = freshDir();
    const now = Date.parse("2026-01-01T00:00:00Z");
    const clock = createTestClock(now);
    const store = createFsStore({ dir, sweepIntervalMs: 0, clock });
    const body = Buffer.from('{"kept":true}');
    const meta = metaFor(testArtifactId(6), body, { createdAt: now, expiresAt: now + 60_000 });
    await store.put(meta, body);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `.tmp-${testArtifactId(7)}-stale`), "half");
    await writeFile(join(dir, `.tmp-${testArtifactId(8)}-fresh`), "half");
    await writeFile(join(dir, `${testArtifactId(9)}.artifact`), "not an artifact");
    await writeFile(join(dir, "notes.txt"), "someone else's file");
    const twoHoursAgo = new Date(now - 2 * 60 * 60 * 1000);
    await utimes(join(dir, `.tmp-${testArtifactId(7)}-stale`), twoHoursAgo, twoHoursAgo);
    const freshTime = new Date(now - 60_000);
    await utimes(join(dir, `.tmp-${testArtifactId(8)}-fresh`), freshTime, freshTime);
    expect(await store.head(meta.id)).toEqual(meta);
    expect(await store.get(testArtifactId(7))).toBeNull();
    expect(await store.sweep()).toEqual({ removed: 0, freedBytes: 0 });
    expect((await readdir(dir)).sort()).toEqual(
      [`${testArtifactId(6)}.artifact`, `.tmp-${testArtifactId(8)}-fresh`, "notes.txt"].sort(),
    );
    await store.dispose();
  });

  it("creates its folder again when it was removed under a running store", async () => {
    const dir = freshDir();
    const store = openStore(dir);
    const body = Buffer.from('{"again":true}');
    await store.put(metaFor(testArtifactId(12), body), body);
    rmSync(dir, { recursive: true, force: true });
    await store.put(metaFor(testArtifactId(13), body), body);
    expect({
      earlier: await store.get(testArtifactId(12)),
      later: await store.get(testArtifactId(13)),
      mode: (await stat(dir)).mode & 0o777,
    }).toEqual({
      earlier: null,
      later: { meta: metaFor(testArtifactId(13), body), body },
      mode: 0o700,
    });
    await store.dispose();
  });

  it("quota pruning never removes a new version that a concurrent put of the same id just wrote", async () => {
    const dir = freshDir();
    const store = openStore(dir, { quotaBytes: 1_000 });
    const version = (id: number, fill: number, createdAt: number) => {
      const body = Buffer.alloc(400, fill);
      return { meta: metaFor(testArtifactId(id), body, { createdAt }), body };
    };
    const older = version(14, 1, 10_000);
    const other = version(15, 2, 10_001);
    const newer = version(14, 3, 10_002);
    const incoming = version(16, 4, 10_003);
    await store.put(older.meta, older.body);
    await store.put(other.meta, other.body);
    // The second put prunes while the first still writes; its oldest candidate is the id being
    // replaced, whose old entry must not take the new file with it.
    await Promise.all([store.put(newer.meta, newer.body), store.put(incoming.meta, incoming.body)]);
    expect({
      replaced: await store.get(newer.meta.id),
      incoming: await store.head(incoming.meta.id),
      pruned: await store.head(other.meta.id),
      files: (await readdir(dir)).sort(),
    }).toEqual({
      replaced: newer,
      incoming: incoming.meta,
      pruned: null,
      files: [`${newer.meta.id}.artifact`, `${incoming.meta.id}.artifact`].sort(),
    });
    await store.dispose();
  });

  it("sweeps expired artifacts on its own timer", async () => {
    const clock = createTestClock(1_000);
    const dir = freshDir();
    const store = createFsStore({ dir, sweepIntervalMs: 5, clock });
    const body = Buffer.from('{"short":"lived"}');
    await store.put(metaFor(testArtifactId(10), body, { expiresAt: 2_000 }), body);
    clock.set(2_000);
    await vi.waitFor(async () => expect(await readdir(dir)).toEqual([]), {
      timeout: 10_000,
      interval: 10,
    });
    await store.dispose();
  });

  it("reports a folder it cannot create as STORE_UNAVAILABLE, keeping the cause", async () => {
    const blocker = join(freshDir(), "a-file");
    await mkdir(join(blocker, ".."), { recursive: true });
    await writeFile(blocker, "in the way");
    const store = openStore(join(blocker, "artifacts"));
    const body = Buffer.from("{}");
    const error = await store
      .put(metaFor(testArtifactId(11), body), body)
      .catch((caught: unknown) => caught);
    expect(
      StoreError.isInstance(error) && {
        message: error.message,
        code: error.code,
        operation: error.operation,
        causeCode: (error.cause as NodeJS.ErrnoException).code,
      },
    ).toEqual({
      message: "[stores:fs] put failed",
      code: "STORE_UNAVAILABLE",
      operation: "put",
      causeCode: "ENOTDIR",
    });
    await store.dispose();
  });

  it("tries to create its folder again on the next call after a failure", async () => {
    const blocker = join(freshDir(), "a-file");
    await mkdir(join(blocker, ".."), { recursive: true });
    await writeFile(blocker, "in the way");
    const store = openStore(join(blocker, "artifacts"));
    const body = Buffer.from('{"later":true}');
    const meta = metaFor(testArtifactId(17), body);
    const first = await store.put(meta, body).catch((error: unknown) => error);
    rmSync(blocker);
    await store.put(meta, body);
    expect({
      first: StoreError.isInstance(first) && first.code,
      stored: await store.get(meta.id),
    }).toEqual({ first: "STORE_UNAVAILABLE", stored: { meta, body } });
    await store.dispose();
  });
});
