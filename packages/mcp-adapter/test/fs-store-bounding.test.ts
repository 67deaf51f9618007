import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueryResultSchema } from "@bounded-mcp/contract";
import { createFsStore } from "@bounded-mcp/stores/fs";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundedMcp } from "../src/server/create-bounded-mcp.js";
import { itemsPayloadOfSize, jsonTextResult } from "./support/fixtures.js";
import { createTestAdapter, TEST_NOW } from "./support/harness.js";

const folders: string[] = [];
const adapters: BoundedMcp[] = [];
afterEach(async () => {
  for (const adapter of adapters.splice(0)) await adapter.dispose();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function adapterOverFolder(dir: string, quotaBytes?: number) {
  const artifactStore = createFsStore({
    dir,
    clock: () => TEST_NOW,
    sweepIntervalMs: 0,
    ...(quotaBytes === undefined ? {} : { quotaBytes }),
  });
  const bounded = createTestAdapter({ artifactStore });
  adapters.push(bounded);
  return bounded;
}

async function freshFolder() {
  const dir = await mkdtemp(join(tmpdir(), "adapter-fs-bounding-"));
  folders.push(dir);
  return dir;
}

const payload = itemsPayloadOfSize(2 * 1024 * 1024);

describe("bounding into the fs store", () => {
  it("writes one artifact file, which another adapter over the folder then serves", async () => {
    const dir = await freshFolder();
    const first = await adapterOverFolder(dir);
    const bounded = await first.boundResult(jsonTextResult(payload));
    const id = (bounded.structuredContent as { responseMeta: { artifact: { id: string } } })
      .responseMeta.artifact.id;
    expect(await readdir(dir)).toEqual([`${id}.artifact`]);
    const restarted = await adapterOverFolder(dir);
    const request = { artifactId: id, responsePath: "/data/items", fields: ["id"], pageSize: 2 };
    const page = QueryResultSchema.parse(
      (await restarted.callQueryTool(request)).structuredContent,
    );
    expect(page.response).toEqual([{ id: "item-000000" }, { id: "item-000001" }]);
  });

  it("answers ARTIFACT_TOO_LARGE naming quotaBytes over the quota and leaves no file behind", async () => {
    const dir = await freshFolder();
    const bounded = await adapterOverFolder(dir, 1024 * 1024);
    const result = await bounded.boundResult(jsonTextResult(payload));
    expect({
      isError: result.isError,
      error: (result.structuredContent as { error: { code: string; details: unknown } }).error,
      files: await readdir(dir),
    }).toMatchObject({
      isError: true,
      error: {
        code: "ARTIFACT_TOO_LARGE",
        details: { limit: 1024 * 1024, limitName: "quotaBytes" },
      },
      files: [],
    });
  });
});
