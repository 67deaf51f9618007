import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { WRITE_OFF_THREAD_MIN_BYTES } from "./write-off-thread.js";

const FS_STORE = fileURLToPath(new URL("../../dist/fs/index.js", import.meta.url));
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

// Run in a child started with --expose-gc (the built store): stages bodies and reports, for each,
// whether a full collection right after stage() (no event loop turn between, as during a
// payload's parse) freed them, then commits and reads each back. The bodies are made and staged
// in functions of their own, so no frame of the script still refers to them.
const SCRIPT = `
import { createHash } from "node:crypto";
const { createFsStore } = await import(process.argv[1]);
const dir = process.argv[2];
const size = Number(process.argv[3]);
const store = createFsStore({ dir, sweepIntervalMs: 0 });
await store.sweep();
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
const meta = (id, body, digest) => ({
  id, scopeHash: "scope-0123456789abcdef", mediaType: "application/json",
  byteLength: body, sha256: digest, createdAt: Date.now(), expiresAt: Date.now() + 3600000,
  responseRoot: "", primaryPaths: [], sourceTruncated: false, contractVersion: 3,
});
function make(shared) {
  const body = Buffer.from(shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  for (let i = 0; i < size; i += 4096) body.write(String(i), i);
  return { holder: { body }, ref: new WeakRef(body.buffer), digest: sha(body) };
}
function stageAndDrop(holder) {
  const staged = store.stage(holder.body);
  holder.body = undefined;
  return staged;
}
const out = {};
for (const [name, shared, verify] of [["shared", true, false], ["sharedVerified", true, true], ["plain", false, false]]) {
  const { holder, ref, digest } = make(shared);
  // A WeakRef's target is kept until the current job ends: let it end first.
  await new Promise((resolve) => setImmediate(resolve));
  const staged = stageAndDrop(holder);
  globalThis.gc();
  const freedAtOnce = ref.deref() === undefined;
  const id = "artifact_release_" + name;
  await staged.commit(meta(id, size, digest), { sha256FromBody: !verify });
  const stored = await store.get(id);
  out[name] = { freedAtOnce, exact: stored !== null && sha(stored.body) === digest };
}
const wrong = make(true);
const refused = stageAndDrop(wrong.holder);
out.wrongDigest = await refused
  .commit(meta("artifact_release_wrong", size, "0".repeat(64)), {})
  .then(() => "stored", (error) => error.code);
out.wrongVisible = (await store.head("artifact_release_wrong")) !== null;
await store.dispose();
process.stdout.write(JSON.stringify(out));
`;

describe("fs store: a large staged body in shared memory", () => {
  it("is held by nothing of the store once staged, and is stored byte-exact", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fs-release-"));
    folders.push(dir);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--expose-gc",
        "--input-type=module",
        "-e",
        SCRIPT,
        FS_STORE,
        dir,
        String(WRITE_OFF_THREAD_MIN_BYTES),
      ],
      { maxBuffer: 1024 * 1024 },
    );
    expect(JSON.parse(stdout)).toEqual({
      shared: { freedAtOnce: true, exact: true },
      sharedVerified: { freedAtOnce: true, exact: true },
      // A body outside shared memory is written on the thread pool, which holds it meanwhile.
      plain: { freedAtOnce: false, exact: true },
      wrongDigest: "INVALID_META",
      wrongVisible: false,
    });
  }, 60_000);
});
