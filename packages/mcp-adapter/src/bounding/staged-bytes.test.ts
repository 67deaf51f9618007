import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createMemoryStore, type StagedBody, type StagingArtifactStore } from "@bounded-mcp/stores";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  artifactOf,
  connectLowLevelServer,
  createTestAdapter,
} from "../../test/support/harness.js";
import { prestartHashingThread } from "./hash-off-thread.js";

// V8's full collection, from a context made while --expose-gc is set for that moment only.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
setFlagsFromString("--no-expose-gc");

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/**
 * `store` with its stage() watched: at each commit (after the bounder parsed the payload), a full
 * collection, then whether the staged bytes are still alive.
 */
function watched(
  store: StagingArtifactStore,
  aliveAtCommit: boolean[],
  committedIds: string[],
): StagingArtifactStore {
  return {
    ...store,
    stage(body): StagedBody {
      const bytes = new WeakRef(body.buffer);
      const staged = store.stage(body);
      return {
        async commit(meta, options) {
          collect();
          aliveAtCommit.push(bytes.deref() !== undefined);
          await staged.commit(meta, options);
          committedIds.push(meta.id);
        },
        discard: () => staged.discard(),
      };
    },
  };
}

/** A JSON text of about `mebibytes` MiB. */
function largeText(mebibytes: number): string {
  const rows: string[] = [];
  for (let i = 0; rows.length * 120 < mebibytes * 1024 * 1024; i++) {
    rows.push(`{"id":${i},"name":"item-${i}","note":"${"n".repeat(80)}"}`);
  }
  return `{"rows":[${rows.join(",")}]}`;
}

/** Bounds `text` through the real adapter over `store`; what was alive at commit, and the stored sha256. */
async function boundThrough(store: StagingArtifactStore, text: string) {
  const aliveAtCommit: boolean[] = [];
  const committedIds: string[] = [];
  // The stores' clock: the real one (the harness's fixed clock would store them expired).
  const bounded = createTestAdapter({
    clock: Date.now,
    artifactStore: watched(store, aliveAtCommit, committedIds),
  });
  const connection = await connectLowLevelServer(bounded, {
    fixture: { result: () => ({ content: [{ type: "text", text }] }) },
  });
  cleanups.push(async () => {
    await connection.close();
    await bounded.dispose();
  });
  await artifactOf(connection);
  const stored = await store.get(committedIds[0] ?? "");
  const storedSha256 =
    stored === null || "expired" in stored
      ? null
      : createHash("sha256").update(stored.body).digest("hex");
  return { aliveAtCommit, storedSha256 };
}

describe("a large payload's stored bytes", () => {
  const text = largeText(12);
  const sha256 = createHash("sha256").update(text).digest("hex");

  it("are held by nothing once staged in the fs store and hashed: freed before the commit, stored byte-exact", async () => {
    const dir = await mkdtemp(join(tmpdir(), "staged-bytes-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = createFsStore({ dir, sweepIntervalMs: 0 });
    await store.sweep();
    expect(await boundThrough(store, text)).toEqual({
      aliveAtCommit: [false],
      storedSha256: sha256,
    });
  });

  it("are kept by the memory store, which stores them as handed over", async () => {
    expect(await boundThrough(createMemoryStore(), text)).toEqual({
      aliveAtCommit: [true],
      storedSha256: sha256,
    });
  });

  it("are written by the hashing thread when the fs store comes from the settings: no thread of its own per payload", async () => {
    // Regression: the fs store started a one-shot thread per large body for its write beside the
    // hashing thread (two isolates per payload, about 8 MiB and 30 ms of CPU each).
    const dir = await mkdtemp(join(tmpdir(), "staged-bytes-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const bounded = createTestAdapter({
      clock: Date.now,
      environment: { BOUNDED_MCP_STORE: "fs", BOUNDED_MCP_STORE_DIR: dir },
    });
    const connection = await connectLowLevelServer(bounded, {
      fixture: { result: () => ({ content: [{ type: "text", text }] }) },
    });
    cleanups.push(async () => {
      await connection.close();
      await bounded.dispose();
    });
    // Loaded and prepared (a read waits for it), and the hashing thread running, as a relay's
    // announcement of the large line leaves it.
    await bounded.store.head(`a${"0".repeat(42)}`);
    prestartHashingThread();
    await new Promise((resolve) => setImmediate(resolve));
    let threads = 0;
    const countThread = () => {
      threads += 1;
    };
    process.on("worker", countThread);
    try {
      const id = await artifactOf(connection);
      await new Promise((resolve) => setImmediate(resolve));
      const file = readFileSync(join(dir, `${id}.artifact`));
      expect({
        threads,
        files: await readdir(dir),
        bodySha256: createHash("sha256")
          .update(file.subarray(0, Buffer.byteLength(text)))
          .digest("hex"),
      }).toEqual({ threads: 0, files: [`${id}.artifact`], bodySha256: sha256 });
    } finally {
      process.off("worker", countThread);
    }
  });
});
