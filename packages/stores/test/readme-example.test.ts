/**
 * README.md's example, read from the README at test time and imported as a module (only an export
 * of what it read is added): if this fails, the README is wrong.
 */
import { writeReadmeBlock } from "@bounded-mcp/vitest-config/readme-blocks";
import { expect, it } from "vitest";

it("behaves as the README example says", async () => {
  const file = writeReadmeBlock({
    readme: new URL("../README.md", import.meta.url),
    name: "stores-memory",
    packageDir: new URL("..", import.meta.url),
    after: "\nexport { artifact, body };\n",
  });
  const { artifact, body } = (await import(file)) as {
    artifact: { meta: Record<string, unknown>; body: Buffer } | null;
    body: Buffer;
  };
  expect(artifact?.body).toEqual(body);
  expect(artifact?.meta).toMatchObject({
    id: "Zq3xV9kLm2Pw8RtY6uNb4A",
    scopeHash: "local",
    byteLength: body.byteLength,
    responseRoot: "/items",
    contractVersion: 3,
  });
});

it("makes a memory store with a per-principal share as the Shares example says", async () => {
  const file = writeReadmeBlock({
    readme: new URL("../README.md", import.meta.url),
    name: "stores-share-bytes",
    packageDir: new URL("..", import.meta.url),
    before: 'import { createMemoryStore } from "@bounded-mcp/stores";\n',
    after: "\nexport { store };\n",
  });
  const { store } = (await import(file)) as {
    store: { name: string; capabilities: { quota: boolean }; dispose(): Promise<void> };
  };
  expect({ name: store.name, quota: store.capabilities.quota }).toEqual({
    name: "memory",
    quota: true,
  });
  await store.dispose();
});
