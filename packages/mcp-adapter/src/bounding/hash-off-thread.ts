import { Worker } from "node:worker_threads";
import { mayHoldInexactNumbersInBytes } from "@bounded-mcp/query-core";

// The helper thread: hashes the bytes it is sent (views over a SharedArrayBuffer, so nothing is
// copied) and tests them for inexact number candidates with query-core's
// mayHoldInexactNumbersInBytes (the same answer as its mayHoldInexactNumbers regex on their UTF-8
// text, read from the shared bytes in place: no decoded copy of the payload on this thread), then
// answers with the hex digest and that answer. CommonJS, as `eval` workers are; the scanner is
// self-contained, so its compiled source is sent as is.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const mayHoldInexactNumbersInBytes = ${String(mayHoldInexactNumbersInBytes)};
parentPort.on("message", (message) => {
  const bytes = message.bytes;
  const sha256 = message.hash ? createHash("sha256").update(bytes).digest("hex") : "";
  const mayHoldInexactNumbers = mayHoldInexactNumbersInBytes(bytes);
  parentPort.postMessage({ job: message.job, sha256, mayHoldInexactNumbers });
  // The last job: end, which frees every shared payload this heap still refers to at once (the
  // answer is delivered first), without waiting for the caller's thread to end it.
  if (message.last) process.exit(0);
});
`;

/** What the helper thread answers for a payload's bytes. */
export interface OffThreadFacts {
  /** Lowercase hex sha256 of the bytes. */
  sha256: string;
  /** mayHoldInexactNumbers (query-core) of the bytes' UTF-8 text: false means none is inexact. */
  mayHoldInexactNumbers: boolean;
}

/**
 * A thread is replaced once it was sent this many bytes. Its heap is tiny and it allocates almost
 * nothing, so V8 never collects it on its own: every message it received, and so every shared
 * payload, would stay alive with it (the process grew by one payload per bounded result). Ending
 * the thread frees all of them at once, with no V8 flag and no process-wide change. The job that
 * reaches this many bytes is its last: the thread answers it and ends itself, so a large payload
 * is let go of as soon as it is hashed, even while the caller's thread is still parsing it (and
 * cannot run the event loop to end the thread); later jobs go to a new thread, started in the
 * background once the last answer arrives, so the next payload seldom waits for a thread to boot.
 * What the process keeps is at most about this many bytes of payloads.
 */
const RECYCLE_AFTER_BYTES = 32 * 1024 * 1024;

interface HashThread {
  worker: Worker;
  pending: Map<number, (facts: OffThreadFacts | null) => void>;
  next: number;
  /** Bytes sent to this thread since it started. */
  sentBytes: number;
  /** It was sent its last job (RECYCLE_AFTER_BYTES) and ends after answering it. */
  retiring: boolean;
}

let shared: HashThread | null | undefined;

function settleAll(thread: HashThread): void {
  if (shared === thread) shared = undefined;
  for (const resolve of thread.pending.values()) resolve(null);
  thread.pending.clear();
}

/** Starts a hashing thread that does not keep the process alive; null when threads are unavailable. */
function startThread(): HashThread | null {
  try {
    // No inherited flags: the source is CommonJS whatever the parent runs with (--input-type...).
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    const thread: HashThread = {
      worker,
      pending: new Map(),
      next: 0,
      sentBytes: 0,
      retiring: false,
    };
    worker.on("message", (message: { job: number } & OffThreadFacts) => {
      const resolve = thread.pending.get(message.job);
      thread.pending.delete(message.job);
      if (thread.pending.size === 0) {
        worker.unref();
        if (thread.retiring) recycle(thread);
      }
      resolve?.({ sha256: message.sha256, mayHoldInexactNumbers: message.mayHoldInexactNumbers });
    });
    worker.on("error", () => settleAll(thread));
    worker.on("exit", () => settleAll(thread));
    // After the listeners: adding a "message" listener refs the thread again.
    worker.unref();
    return thread;
  } catch {
    return null;
  }
}

/**
 * Starts the replacement of a thread that answered its last job (it ends itself; terminate only
 * makes sure).
 */
function recycle(thread: HashThread): void {
  if (shared === thread) shared = startThread() ?? undefined;
  thread.worker.terminate().catch(() => undefined);
}

/** The process's one current hashing thread, started on first use; null when threads are unavailable. */
function hashThread(): HashThread | null {
  if (shared === undefined || shared?.retiring === true) shared = startThread();
  return shared;
}

/**
 * Starts hashing `bytes` (a view over a SharedArrayBuffer, never copied) and testing them for
 * inexact number candidates on a helper thread, so the caller can JSON.parse meanwhile; resolves
 * to both answers (OffThreadFacts), or null when the thread is unavailable or failed (the caller
 * then does the work on its own thread). The thread is shared by the process, started on first
 * use, retired by the job that brings it to RECYCLE_AFTER_BYTES (it answers that job and ends;
 * later jobs go to a new thread), and keeps the process alive only while a job is pending. It changes nothing process-wide (no V8 flags). The caller must not write `bytes`
 * until the promise settles. The candidate test reads the shared bytes in place (no copy on the
 * helper thread either).
 */
export function factsOffThread(bytes: Uint8Array): Promise<OffThreadFacts | null> {
  return postJob(bytes, true);
}

function postJob(bytes: Uint8Array, hash: boolean): Promise<OffThreadFacts | null> {
  const thread = hashThread();
  if (thread === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const job = thread.next++;
    thread.pending.set(job, resolve);
    thread.sentBytes += bytes.byteLength;
    const last = thread.sentBytes >= RECYCLE_AFTER_BYTES;
    if (last) thread.retiring = true;
    thread.worker.ref();
    try {
      thread.worker.postMessage({ job, bytes, hash, last });
    } catch {
      thread.pending.delete(job);
      resolve(null);
    }
  });
}

/**
 * factsOffThread's candidate test alone, for bytes already hashed (a stored body read back):
 * mayHoldInexactNumbers of their UTF-8 text, or null when the thread is unavailable or failed.
 * Bytes outside a SharedArrayBuffer are copied into one first (one memcpy on the caller's
 * thread), so the thread reads them without a structured clone.
 */
export function testInexactOffThread(bytes: Uint8Array): Promise<boolean | null> {
  let shared = bytes;
  if (!(bytes.buffer instanceof SharedArrayBuffer)) {
    shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
    shared.set(bytes);
  }
  return postJob(shared, false).then((facts) => facts?.mayHoldInexactNumbers ?? null);
}

/** factsOffThread's sha256 alone: the lowercase hex digest, or null when the thread is unavailable. */
export function hashOffThread(bytes: Uint8Array): Promise<string | null> {
  return factsOffThread(bytes).then((facts) => facts?.sha256 ?? null);
}
