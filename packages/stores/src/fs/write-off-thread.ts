import { Worker } from "node:worker_threads";

// A one-shot thread: writes the shared bytes it was started with at the start of the open file
// `fd` (positional writes, continued after a short one), posts the outcome and ends. Ending is
// what drops its hold on the shared memory (a thread that allocates almost nothing never collects
// its heap on its own). CommonJS, as `eval` workers are.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
let outcome;
try {
  const bytes = workerData.bytes;
  let at = 0;
  while (at < bytes.byteLength) {
    const written = writeSync(workerData.fd, bytes, at, bytes.byteLength - at, at);
    if (written === 0) throw new Error("the file system accepted no bytes");
    at += written;
  }
  outcome = { ok: true };
} catch (error) {
  outcome = { ok: false, message: String(error && error.message), code: error && error.code };
}
parentPort.postMessage(outcome);
`;

/**
 * Bodies of at least this many bytes in shared memory are written by a one-shot thread (see
 * writeOffThread); smaller ones on the thread pool, where starting a thread would cost more than
 * the bytes it lets go early.
 */
export const WRITE_OFF_THREAD_MIN_BYTES = 8 * 1024 * 1024;

/**
 * Starts writing `bytes` (a view over a SharedArrayBuffer, never copied) at offset 0 of the open
 * descriptor `fd` on a thread of its own, which ends once they are written: neither this thread
 * nor that one keeps a reference to the bytes afterwards, so the caller can drop its own and the
 * memory is freed by the next garbage collection, even one inside a long synchronous task (a
 * payload's parse) that the write finished during. Resolves when all bytes are written; rejects
 * with the write's error (its `code` kept) or when the thread ended without an answer. Returns
 * undefined when no thread can be started (the caller then writes as before). Limits: one thread
 * start per call (a few milliseconds of another core), so only for large bodies
 * (WRITE_OFF_THREAD_MIN_BYTES); the caller must not write the bytes or close `fd` until it
 * settles.
 */
export function writeOffThread(fd: number, bytes: Uint8Array): Promise<void> | undefined {
  let worker: Worker;
  try {
    // No inherited flags: the source is CommonJS whatever the parent runs with.
    worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { fd, bytes } });
  } catch {
    return undefined;
  }
  return new Promise((resolve, reject) => {
    let answered = false;
    worker.once("message", (outcome: { ok: boolean; message?: string; code?: string }) => {
      answered = true;
      if (outcome.ok) {
        resolve();
        return;
      }
      const error: NodeJS.ErrnoException = new Error(outcome.message ?? "the write failed");
      if (outcome.code !== undefined) error.code = outcome.code;
      reject(error);
    });
    worker.once("error", reject);
    worker.once("exit", () => {
      if (!answered) reject(new Error("the writing thread ended without an answer"));
    });
  });
}
