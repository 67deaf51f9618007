import { createHash } from "node:crypto";
import { createTestClock, metaFor, testArtifactId } from "@bounded-mcp/stores/testing";
import { describe, expect, it } from "vitest";
import { StoreError } from "../store-error.js";
import { createMemoryStore } from "./memory-store.js";

function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "stored",
    (error: unknown) =>
      StoreError.isInstance(error) ? { code: error.code, message: error.message } : error,
  );
}

describe("memory store staging", () => {
  it("keeps a staged body as is: no copy, the caller's sha256 taken as the body's", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.from('{"items":[1,2,3]}');
    const meta = metaFor(testArtifactId(1), body);
    await store.stage(body).commit(meta, { sha256FromBody: true });
    // Staging hands the body over: the caller never writes it again; the store did not copy it.
    body.write("[", 0);
    expect(await store.get(meta.id)).toEqual({ meta, body: Buffer.from('["items":[1,2,3]}') });
  });

  it("put copies the body in, so a later change of the caller's Buffer changes nothing", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.from('{"items":[1,2,3]}');
    const meta = metaFor(testArtifactId(4), body);
    await store.put(meta, body);
    body.write("[", 0);
    expect(await store.get(meta.id)).toEqual({ meta, body: Buffer.from('{"items":[1,2,3]}') });
  });

  it("still checks the id, the cap and the byte length without hashing", async () => {
    const store = createMemoryStore({ clock: createTestClock(0), maxBytes: 64 });
    const body = Buffer.from("[1,2,3]");
    const meta = metaFor(testArtifactId(2), body);
    const trusted = { sha256FromBody: true };
    expect([
      await failureOf(store.stage(body).commit({ ...meta, byteLength: 8 }, trusted)),
      await failureOf(store.stage(body).commit({ ...meta, id: "no/such/id" }, trusted)),
      await failureOf(store.stage(Buffer.alloc(65)).commit(meta, trusted)),
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

  it("hashes the body when the caller does not say the sha256 is the body's", async () => {
    const store = createMemoryStore({ clock: createTestClock(0) });
    const body = Buffer.from("[1,2,3]");
    const wrong = createHash("sha256").update("[1,2,4]").digest("hex");
    const meta = { ...metaFor(testArtifactId(3), body), sha256: wrong };
    const refused = {
      code: "INVALID_META",
      message: "[stores:memory] put failed: meta.sha256 is not the sha256 of the body",
    };
    expect([
      await failureOf(store.put(meta, body)),
      await failureOf(store.stage(body).commit(meta)),
    ]).toEqual([refused, refused]);
  });
});
