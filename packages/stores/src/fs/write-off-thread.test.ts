import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeOffThread } from "./write-off-thread.js";

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const sharedBytes = (size: number): Buffer => {
  const bytes = Buffer.from(new SharedArrayBuffer(size));
  for (let i = 0; i < size; i++) bytes[i] = (i * 31) % 251;
  return bytes;
};

describe("writeOffThread", () => {
  it("writes the shared bytes at the start of the descriptor, byte for byte", async () => {
    const dir = await mkdtemp(join(tmpdir(), "write-thread-"));
    folders.push(dir);
    const path = join(dir, "body");
    const bytes = sharedBytes(3 * 1024 * 1024 + 17);
    const fd = openSync(path, "wx", 0o600);
    try {
      await writeOffThread(fd, bytes);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("rejects with the write's error code when the descriptor cannot be written", async () => {
    const dir = await mkdtemp(join(tmpdir(), "write-thread-"));
    folders.push(dir);
    const path = join(dir, "read-only");
    writeFileSync(path, "");
    const fd = openSync(path, "r");
    try {
      await expect(writeOffThread(fd, sharedBytes(1024))).rejects.toMatchObject({ code: "EBADF" });
    } finally {
      closeSync(fd);
    }
  });
});
