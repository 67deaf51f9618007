import { Worker } from "node:worker_threads";

// The helper thread: hashes the bytes it is sent (views over a SharedArrayBuffer, so nothing is
// copied) and answers with the hex digest. CommonJS, as `eval` workers are. It then collects its
// own garbage: its heap is tiny, so V8 would otherwise keep the message (and so the whole shared
// payload) alive indefinitely, growing the process by one payload per bounded result.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
require("node:v8").setFlagsFromString("--expose-gc");
const collect = require("node:vm").runInNewContext("gc");
parentPort.on("message", (message) => {
  const sha256 = createHash("sha256").update(message.bytes).digest("hex");
  parentPort.postMessage({ job: message.job, sha256 });
  message.bytes = null;
  setImmediate(collect);
});
`;

interface HashThread {
  worker: Worker;
  pending: Map<number, (sha256: string | null) => void>;
  next: number;
}

let shared: HashThread | null | undefined;

function settleAll(thread: HashThread): void {
  if (shared === thread) shared = undefined;
  for (const resolve of thread.pending.values()) resolve(null);
  thread.pending.clear();
}

/** The process's one hashing thread, started on first use; null when threads are unavailable. */
function hashThread(): HashThread | null {
  if (shared !== undefined) return shared;
  try {
    // No inherited flags: the source is CommonJS whatever the parent runs with (--input-type...).
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    const thread: HashThread = { worker, pending: new Map(), next: 0 };
    worker.unref();
    worker.on("message", (message: { job: number; sha256: string }) => {
      const resolve = thread.pending.get(message.job);
      thread.pending.delete(message.job);
      if (thread.pending.size === 0) worker.unref();
      resolve?.(message.sha256);
    });
    worker.on("error", () => settleAll(thread));
    worker.on("exit", () => settleAll(thread));
    shared = thread;
  } catch {
    shared = null;
  }
  return shared;
}

/**
 * Starts hashing `bytes` (a view over a SharedArrayBuffer, never copied) on a helper thread, so
 * the caller can parse meanwhile; resolves to the lowercase hex sha256, or null when the thread
 * is unavailable or failed (the caller then hashes on its own thread). The thread is shared by
 * the process, started on first use, and keeps the process alive only while a hash is pending.
 * The caller must not write `bytes` until the promise settles.
 */
export function hashOffThread(bytes: Uint8Array): Promise<string | null> {
  const thread = hashThread();
  if (thread === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const job = thread.next++;
    thread.pending.set(job, resolve);
    thread.worker.ref();
    try {
      thread.worker.postMessage({ job, bytes });
    } catch {
      thread.pending.delete(job);
      resolve(null);
    }
  });
}
