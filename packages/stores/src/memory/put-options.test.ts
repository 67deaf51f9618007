import { createHash } from "node:crypto";
import { createTestClock, metaFor, testArtifactId } from "@bounded-mcp/stores/testing";
import { describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { createMemoryStore } from "./memory-store.js";

const IN_PROCESS = { sha256Computed: true, handOver: true };

function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "stored",
    (error: unknown) =>
      StoreError.isInstance(error) ? { code: error.code, message: error.message } : error,
  );
}

describe("memory store put with PutOptions", () => {
  it("keeps a handed-over body as is: no copy, the caller's sha256 taken as computed", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.from('{"items":[1,2,3]}');
    const meta = metaFor(testArtifactId(1), body);
    await store.put(meta, body, IN_PROCESS);
    // Handing over means the caller never writes the body again; the store did not copy it.
    body.write("[", 0);
    expect(await store.get(meta.id)).toEqual({ meta, body: Buffer.from('["items":[1,2,3]}') });
  });

  it("still checks the id, the cap and the byte length without hashing", async () => {
    const store = createMemoryStore({ clock: createTestClock(0), maxBytes: 64 });
    const body = Buffer.from("[1,2,3]");
    const meta = metaFor(testArtifactId(2), body);
    expect([
      await failureOf(store.put({ ...meta, byteLength: 8 }, body, IN_PROCESS)),
      await failureOf(store.put({ ...meta, id: "no/such/id" }, body, IN_PROCESS)),
      await failureOf(store.put(meta, Buffer.alloc(65), IN_PROCESS)),
    ]).toEqual([
      {
        code: "INVALID_META",
        message: "[stores:memory] put failed: meta.byteLength is 8 but the body has 7 bytes",
      },
      {
        code: "INVALID_ARTIFACT_ID",
        message:
          "[stores:memory] put failed: the artifact id does not match /^[A-Za-z0-9_-]{20,100}$/",
      },
      {
        code: "QUOTA_EXCEEDED",
        message: "[stores:memory] put failed: 65 bytes exceed the cap of 64",
      },
    ]);
  });

  it("hashes the body as before when the caller does not say it computed the sha256", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.from("[1,2,3]");
    const wrong = createHash("sha256").update("[1,2,4]").digest("hex");
    const meta = { ...metaFor(testArtifactId(3), body), sha256: wrong };
    expect([
      await failureOf(store.put(meta, body)),
      await failureOf(store.put(meta, body, { handOver: true })),
    ]).toEqual([
      {
        code: "INVALID_META",
        message: "[stores:memory] put failed: meta.sha256 is not the sha256 of the body",
      },
      {
        code: "INVALID_META",
        message: "[stores:memory] put failed: meta.sha256 is not the sha256 of the body",
      },
    ]);
  });
});
