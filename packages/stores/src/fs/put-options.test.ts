import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRecordingStoreLogger,
  createTestClock,
  metaFor,
  testArtifactId,
} from "@bounded-mcp/stores/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createFsStore } from "./fs-store.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function freshStore() {
  const dir = await mkdtemp(join(tmpdir(), "fs-in-process-put-"));
  folders.push(dir);
  const logger = createRecordingStoreLogger();
  const store = createFsStore({ dir, clock: createTestClock(0), sweepIntervalMs: 0, logger });
  return { store, logger };
}

describe("fs store put with PutOptions", () => {
  it("writes without hashing again and serves the artifact after checking length and sha256", async () => {
    const { store } = await freshStore();
    const body = Buffer.from('{"items":[1,2,3]}');
    const meta = metaFor(testArtifactId(1), body);
    await store.put(meta, body, { sha256Computed: true, handOver: true });
    expect(await store.get(meta.id)).toEqual({ meta, body });
    await store.dispose();
  });

  it("never serves metadata and body that disagree: reads verify the sha256 from disk", async () => {
    const { store, logger } = await freshStore();
    const body = Buffer.from("[1,2,3]");
    // A digest that does not describe the body stands for a damaged file: put trusts the
    // caller, the read does not.
    const wrong = createHash("sha256").update("[1,2,4]").digest("hex");
    const meta = { ...metaFor(testArtifactId(2), body), sha256: wrong };
    await store.put(meta, body, { sha256Computed: true });
    expect({
      get: await store.get(meta.id),
      warnings: logger.lines.map((line) => line.message),
    }).toEqual({ get: null, warnings: ["[stores:fs] get: skipped a damaged artifact file"] });
    await store.dispose();
  });
});
