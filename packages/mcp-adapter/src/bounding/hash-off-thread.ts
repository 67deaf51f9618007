import { Worker } from "node:worker_threads";

// The helper thread: hashes the bytes it is sent (views over a SharedArrayBuffer, so nothing is
// copied) and answers with the hex digest. CommonJS, as `eval` workers are.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
parentPort.on("message", (message) => {
  const sha256 = createHash("sha256").update(message.bytes).digest("hex");
  parentPort.postMessage({ job: message.job, sha256 });
});
`;

/**
 * A thread is replaced once it hashed this many bytes and is idle. Its heap is tiny and it
 * allocates almost nothing, so V8 never collects it on its own: every message it received, and so
 * every shared payload, would stay alive with it (the process grew by one payload per bounded
 * result). Ending the thread frees all of them at once, with no V8 flag and no process-wide
 * change; the replacement starts at once, in the background, so the next payload does not wait
 * for a thread to boot. What the process keeps is at most about this many bytes of payloads.
 */
const RECYCLE_AFTER_BYTES = 32 * 1024 * 1024;

interface HashThread {
  worker: Worker;
  pending: Map<number, (sha256: string | null) => void>;
  next: number;
  /** Bytes sent to this thread since it started. */
  sentBytes: number;
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
    const thread: HashThread = { worker, pending: new Map(), next: 0, sentBytes: 0 };
    worker.on("message", (message: { job: number; sha256: string }) => {
      const resolve = thread.pending.get(message.job);
      thread.pending.delete(message.job);
      if (thread.pending.size === 0) {
        worker.unref();
        if (thread.sentBytes >= RECYCLE_AFTER_BYTES) recycle(thread);
      }
      resolve?.(message.sha256);
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

/** Ends an idle thread (freeing every payload it still references) and starts its replacement. */
function recycle(thread: HashThread): void {
  if (shared === thread) shared = startThread() ?? undefined;
  thread.worker.terminate().catch(() => undefined);
}

/** The process's one current hashing thread, started on first use; null when threads are unavailable. */
function hashThread(): HashThread | null {
  if (shared === undefined) shared = startThread();
  return shared;
}

/**
 * Starts hashing `bytes` (a view over a SharedArrayBuffer, never copied) on a helper thread, so
 * the caller can parse meanwhile; resolves to the lowercase hex sha256, or null when the thread
 * is unavailable or failed (the caller then hashes on its own thread). The thread is shared by
 * the process, started on first use, replaced when idle after RECYCLE_AFTER_BYTES, and keeps the
 * process alive only while a hash is pending. It changes nothing process-wide (no V8 flags). The
 * caller must not write `bytes` until the promise settles.
 */
export function hashOffThread(bytes: Uint8Array): Promise<string | null> {
  const thread = hashThread();
  if (thread === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const job = thread.next++;
    thread.pending.set(job, resolve);
    thread.sentBytes += bytes.byteLength;
    thread.worker.ref();
    try {
      thread.worker.postMessage({ job, bytes });
    } catch {
      thread.pending.delete(job);
      resolve(null);
    }
  });
}
