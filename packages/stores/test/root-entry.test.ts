import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const lister = join(packageRoot, "test", "fixtures", "list-loaded-modules.mjs");

/** The module URLs a fresh Node process resolves while importing the built entry `entry`. */
async function modulesLoadedBy(entry: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [lister, join(packageRoot, "dist", entry)],
    {
      cwd: packageRoot,
    },
  );
  return JSON.parse(stdout) as string[];
}

const fromAwsSdk = (urls: string[]) => urls.filter((url) => url.includes("/@aws-sdk/"));

describe("the package entries", () => {
  beforeAll(() => {
    if (!existsSync(join(packageRoot, "dist", "index.js"))) {
      throw new Error("build the package first: pnpm --filter @bounded-mcp/stores build");
    }
  });

  it("the root entry loads no @aws-sdk module", async () => {
    const loaded = await modulesLoadedBy("index.js");
    expect(loaded.some((url) => url.endsWith("/dist/index.js"))).toBe(true);
    expect(fromAwsSdk(loaded)).toEqual([]);
  });

  it("the fs entry loads no @aws-sdk module", async () => {
    expect(fromAwsSdk(await modulesLoadedBy("fs/index.js"))).toEqual([]);
  });

  it("the s3 entry does load @aws-sdk/client-s3 (so the check above can see it)", async () => {
    const loaded = fromAwsSdk(await modulesLoadedBy("s3/index.js"));
    expect(loaded.some((url) => url.includes("/@aws-sdk/client-s3/"))).toBe(true);
  });

  it("the root entry exports exactly its public names", async () => {
    const root = await import("../src/index.js");
    expect(Object.keys(root).sort()).toEqual([
      "AT_REST_KEY_BYTES",
      "DEFAULT_EXPIRED_GRACE_MS",
      "DEFAULT_MEMORY_MAX_BYTES",
      "SEALED_OVERHEAD_BYTES",
      "SILENT_STORE_LOGGER",
      "StoreError",
      "assertValidArtifactId",
      "canStage",
      "createAtRestKeys",
      "createEncryptedStore",
      "createMemoryStore",
      "deriveAtRestKeys",
      "isExpiredArtifact",
      "isValidArtifactId",
    ]);
  });
});
