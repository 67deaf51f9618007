import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { createMemoryStore } from "../src/index.js";

it("behaves as the README example says", async () => {
  const store = createMemoryStore({ maxBytes: 128 * 1024 * 1024 });
  const body = Buffer.from('{"items":[1,2,3]}');
  const now = Date.now();
  const meta = {
    id: "Zq3xV9kLm2Pw8RtY6uNb4A",
    scopeHash: "local",
    mediaType: "application/json" as const,
    byteLength: body.byteLength,
    sha256: createHash("sha256").update(body).digest("hex"),
    createdAt: now,
    expiresAt: now + 24 * 60 * 60 * 1000,
    responseRoot: "/items",
    primaryPaths: ["/items"],
    sourceTruncated: false,
    contractVersion: 3 as const,
  };
  await store.put(meta, body);
  expect(await store.get("Zq3xV9kLm2Pw8RtY6uNb4A")).toEqual({ meta, body });
  await store.dispose();
});
