import { createHash } from "node:crypto";
import { unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

const HOST_TAG = createHash("sha256").update(hostname()).digest("hex").slice(0, 8);
const START_SECONDS = Math.round(Date.now() / 1000 - process.uptime());
/** Two start times this close belong to one process (they are rounded once per copy). */
const SAME_START_SECONDS = 2;
const WRITER_PATTERN = /^\.tmp-([0-9a-f]{8})\.(\d{1,10})\.(\d{1,12})-/;

/**
 * Who writes a temp file, in its name: `<host>.<pid>.<start>`, a tag of the host name, the
 * process id and the process's start time (seconds since the epoch; process-wide, so every
 * thread and every copy of this package in one process writes the same).
 */
export const THIS_WRITER = `${HOST_TAG}.${process.pid}.${START_SECONDS}`;

/** True while a process with this id runs on this host (or may: one we may not signal). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a temp file was left by a write no process will finish: written on this host by a
 * process that is gone (its pid runs no more, or it is this pid of an earlier start, as after a
 * container restart). Temp files of other hosts, of running processes, of this process, and
 * names in another form are kept: the sweep removes them once they are an hour old.
 */
export function isAbandonedTempFile(fileName: string): boolean {
  const match = WRITER_PATTERN.exec(fileName);
  if (match === null || match[1] !== HOST_TAG) return false;
  const pid = Number(match[2]);
  const startSeconds = Number(match[3]);
  if (pid === process.pid) return Math.abs(startSeconds - START_SECONDS) > SAME_START_SECONDS;
  return !isRunning(pid);
}

/**
 * Removes the abandoned temp files among `fileNames` of `dir` (see isAbandonedTempFile), as a
 * store does when it opens: a process killed during a write (SIGKILL, a crash, a power loss)
 * leaves its temp file behind, up to a whole payload. Returns the names removed.
 */
export async function removeAbandonedTempFiles(
  dir: string,
  fileNames: readonly string[],
): Promise<string[]> {
  const removed: string[] = [];
  for (const fileName of fileNames) {
    if (!isAbandonedTempFile(fileName)) continue;
    await unlink(join(dir, fileName)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    removed.push(fileName);
  }
  return removed;
}
