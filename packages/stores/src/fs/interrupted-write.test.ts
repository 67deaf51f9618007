import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createFsStore } from "./fs-store.js";
import { isAbandonedTempFile, THIS_WRITER } from "./temp-files.js";

const FIXTURE = fileURLToPath(
  new URL("../../test/fixtures/interrupted-write.mjs", import.meta.url),
);
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** Runs a node process to its end and returns its pid (no longer running). */
async function pidOfAnEndedProcess(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid ?? 0;
}

const tempsOf = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.startsWith(".tmp-"));

describe("temp files of interrupted writes", () => {
  it("a store opened after a writer was killed with SIGKILL mid-write removes its temp file and keeps the artifacts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fs-interrupted-"));
    folders.push(dir);
    const child = spawn(process.execPath, [FIXTURE, dir, "128"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit");
    let output = "";
    for await (const chunk of child.stdout) {
      output += String(chunk);
      if (output.includes("writing\n")) break;
    }
    child.kill("SIGKILL");
    const [code, signal] = await exited;
    const left = await tempsOf(dir);
    expect({ code, signal, tempFilesLeft: left.length }).toEqual({
      code: null,
      signal: "SIGKILL",
      tempFilesLeft: 1,
    });
    const store = createFsStore({ dir, sweepIntervalMs: 0 });
    const complete = await store.head("artifact_complete_0001");
    expect({
      temps: await tempsOf(dir),
      files: await readdir(dir),
      complete: complete !== null && !("expired" in complete),
    }).toEqual({ temps: [], files: ["artifact_complete_0001.artifact"], complete: true });
    await store.dispose();
  }, 60_000);

  it("tells abandoned temp files from those a running process may still finish", async () => {
    const [host, pid, start] = THIS_WRITER.split(".") as [string, string, string];
    const named = (writer: string) => `.tmp-${writer}-staged-0123456789ab`;
    const endedPid = await pidOfAnEndedProcess();
    expect({
      thisProcess: isAbandonedTempFile(named(THIS_WRITER)),
      thisPidEarlierStart: isAbandonedTempFile(named(`${host}.${pid}.${Number(start) - 600}`)),
      endedProcess: isAbandonedTempFile(named(`${host}.${endedPid}.${start}`)),
      runningParent: isAbandonedTempFile(named(`${host}.${process.ppid}.${start}`)),
      otherHost: isAbandonedTempFile(named(`ffffffff.${endedPid}.${start}`)),
      olderForm: isAbandonedTempFile(".tmp-artifact_0000000000001-0123456789ab"),
    }).toEqual({
      thisProcess: false,
      thisPidEarlierStart: true,
      endedProcess: true,
      runningParent: false,
      otherHost: false,
      olderForm: false,
    });
  });

  it("opening a store leaves temp files of this process and of other hosts alone", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fs-temp-kept-"));
    folders.push(dir);
    const [, pid, start] = THIS_WRITER.split(".") as [string, string, string];
    const kept = [
      `.tmp-${THIS_WRITER}-staged-0123456789ab`,
      `.tmp-ffffffff.${pid}.${start}-staged-0123456789ab`,
    ];
    for (const name of kept) await writeFile(join(dir, name), "half");
    const store = createFsStore({ dir, sweepIntervalMs: 0 });
    await store.head("artifact_unknown_00001");
    expect((await tempsOf(dir)).sort()).toEqual([...kept].sort());
    await store.dispose();
  });
});
