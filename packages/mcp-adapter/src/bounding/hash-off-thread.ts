import { subscribe } from "node:diagnostics_channel";
import { Worker } from "node:worker_threads";
import { mayHoldInexactNumbersInBytes } from "@bounded-mcp/query-core";

// The helper thread: hashes the bytes it is sent (views over a SharedArrayBuffer, so nothing is
// copied) and tests them for inexact number candidates with query-core's
// mayHoldInexactNumbersInBytes (the same answer as its mayHoldInexactNumbers regex on their UTF-8
// text, read from the shared bytes in place: no decoded copy of the payload on this thread), then
// answers with the hex digest and that answer. A write job (`fd` set) writes the bytes at the
// start of that open file on the thread pool (positional writes, continued after a short one),
// so the jobs after it (the payload's hash and test) run meanwhile, and answers with its outcome
// once written. The last job ends the thread, once no write is under way. CommonJS, as `eval`
// workers are; the scanner is self-contained, so its compiled source is sent as is.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { write } = require("node:fs");
const mayHoldInexactNumbersInBytes = ${String(mayHoldInexactNumbersInBytes)};
let writing = 0;
let ending = false;
function finishWrite(job, written) {
  parentPort.postMessage({ job, written });
  writing -= 1;
  if (ending && writing === 0) process.exit(0);
}
function writeAll(job, fd, bytes, at) {
  write(fd, bytes, at, bytes.byteLength - at, at, (error, count) => {
    if (error) finishWrite(job, { ok: false, message: String(error.message), code: error.code });
    else if (count === 0) finishWrite(job, { ok: false, message: "the file system accepted no bytes" });
    else if (at + count < bytes.byteLength) writeAll(job, fd, bytes, at + count);
    else finishWrite(job, { ok: true });
  });
}
parentPort.on("message", (message) => {
  const bytes = message.bytes;
  if (message.fd !== undefined) {
    writing += 1;
    writeAll(message.job, message.fd, bytes, 0);
  } else {
    const sha256 = message.hash ? createHash("sha256").update(bytes).digest("hex") : "";
    const mayHoldInexactNumbers = mayHoldInexactNumbersInBytes(bytes);
    parentPort.postMessage({ job: message.job, sha256, mayHoldInexactNumbers });
  }
  // The last job: end (once the writes are done), which frees every shared payload this heap
  // still refers to at once (the answers are delivered first), without waiting for the caller's
  // thread to end it.
  if (message.last) {
    ending = true;
    if (writing === 0) process.exit(0);
  }
});
`;

/** What the helper thread answers to a write job: the outcome of writing the bytes. */
interface WriteOutcome {
  ok: boolean;
  message?: string;
  code?: string;
}

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
 * cannot run the event loop to end the thread); later jobs go to a new thread, started by the
 * next job or by the next large payload's announcement (LARGE_PAYLOAD_CHANNEL), not as soon as the
 * last answer arrives: a thread booted then (about 8 MiB) would sit on top of the memory the
 * answered call still holds (its text and document until the next collections). What the process
 * keeps is at most about this many bytes of payloads. A payload the thread both writes and hashes
 * (writeOnHashingThread, then factsOffThread) counts twice, so that is about 16 MiB of them.
 */
const RECYCLE_AFTER_BYTES = 32 * 1024 * 1024;

/** What a job's answer settles: facts, a write's outcome, or null when the thread is gone. */
type JobAnswer = { facts: OffThreadFacts } | { written: WriteOutcome };

interface HashThread {
  worker: Worker;
  pending: Map<number, (answer: JobAnswer | null) => void>;
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
    worker.on("message", (message: { job: number; written?: WriteOutcome } & OffThreadFacts) => {
      const resolve = thread.pending.get(message.job);
      thread.pending.delete(message.job);
      if (thread.pending.size === 0) {
        worker.unref();
        if (thread.retiring) recycle(thread);
      }
      resolve?.(
        message.written === undefined
          ? {
              facts: {
                sha256: message.sha256,
                mayHoldInexactNumbers: message.mayHoldInexactNumbers,
              },
            }
          : { written: message.written },
      );
    });
    // An error ends the thread; its jobs are settled on "exit", which follows once the thread's
    // own requests are done: a write job rejected at once would let the store close (and the
    // process reuse) a descriptor the thread pool may still write to.
    worker.on("error", () => {
      if (shared === thread) shared = undefined;
    });
    worker.on("exit", () => settleAll(thread));
    // After the listeners: adding a "message" listener refs the thread again.
    worker.unref();
    return thread;
  } catch {
    return null;
  }
}

/**
 * Lets go of a thread that answered its last job (it ends itself; terminate only makes sure): the
 * next job or announcement starts its replacement (see RECYCLE_AFTER_BYTES).
 */
function recycle(thread: HashThread): void {
  if (shared === thread) shared = undefined;
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
  return postJob({ bytes, hash: true }).then((answer) =>
    answer !== null && "facts" in answer ? answer.facts : null,
  );
}

/**
 * Starts the process's hashing thread now if none is running, so a large payload about to arrive
 * (a relay reading a long upstream line) finds it booted: starting a thread costs about 30 ms of
 * CPU and, on a busy machine, up to hundreds of milliseconds before it runs, which would
 * otherwise be spent while the payload's bytes wait for it. Limits: the thread costs about 8 MiB
 * while it lives (it does not keep the process alive); a no-op when threads are unavailable.
 */
export function prestartHashingThread(): void {
  hashThread();
}

/**
 * The diagnostics channel on which a transport announces a large payload being received (the
 * relay's linear stdio transport, once an upstream line passes 1 MiB): this module starts its
 * hashing thread then (prestartHashingThread), so a transport need not depend on this module's
 * internals. The message is ignored. Limits: process-wide, like the thread; importing this module
 * subscribes (a side effect), so any publisher in the process starts the thread, which then idles
 * (about 8 MiB) until a payload is hashed or the process exits when no payload follows.
 */
export const LARGE_PAYLOAD_CHANNEL = "bounded-mcp:large-payload-arriving";

subscribe(LARGE_PAYLOAD_CHANNEL, prestartHashingThread);

/**
 * Writes `bytes` (a view over a SharedArrayBuffer, never copied) at offset 0 of the open
 * descriptor `fd` from the hashing thread (on the thread pool, while that thread hashes and tests
 * the bytes of the jobs posted after it): the fs store's
 * writer for a staged body (`writeLargeBody` of createFsStore), so one helper thread writes,
 * hashes and tests a large payload instead of a second thread started for the write (a thread
 * costs about 8 MiB and 30 ms of CPU, and competes for the cores with the caller's parse). The
 * bounder posts the payload's facts job right after (factsOffThread of the same bytes); the thread
 * ends after the job that brings it to RECYCLE_AFTER_BYTES, so once both are done nothing holds
 * the bytes but the caller. Resolves when all bytes are written; rejects with the write's error
 * (its `code` kept) or when the thread ended without an answer. Returns undefined when no thread
 * is available (the store then writes them its own way). The caller must not write the bytes or
 * close `fd` until it settles.
 */
export function writeOnHashingThread(fd: number, bytes: Uint8Array): Promise<void> | undefined {
  if (hashThread() === null) return undefined;
  return postJob({ bytes, fd }).then((answer) => {
    if (answer === null || !("written" in answer)) {
      throw new Error("the hashing thread ended before it wrote the bytes");
    }
    const { ok, message, code } = answer.written;
    if (ok) return;
    const error: NodeJS.ErrnoException = new Error(message ?? "the write failed");
    if (code !== undefined) error.code = code;
    throw error;
  });
}

function postJob(job: {
  bytes: Uint8Array;
  hash?: boolean;
  fd?: number;
}): Promise<JobAnswer | null> {
  const thread = hashThread();
  if (thread === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const id = thread.next++;
    thread.pending.set(id, resolve);
    thread.sentBytes += job.bytes.byteLength;
    // A write is followed by its payload's facts job (writeOnHashingThread), which retires the
    // thread in its turn: ending after the write would leave that job to a thread still booting.
    const last = job.fd === undefined && thread.sentBytes >= RECYCLE_AFTER_BYTES;
    if (last) thread.retiring = true;
    thread.worker.ref();
    try {
      thread.worker.postMessage({ job: id, ...job, last });
    } catch {
      thread.pending.delete(id);
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
  return postJob({ bytes: shared, hash: false }).then((answer) =>
    answer !== null && "facts" in answer ? answer.facts.mayHoldInexactNumbers : null,
  );
}

/** factsOffThread's sha256 alone: the lowercase hex digest, or null when the thread is unavailable. */
export function hashOffThread(bytes: Uint8Array): Promise<string | null> {
  return factsOffThread(bytes).then((facts) => facts?.sha256 ?? null);
}
