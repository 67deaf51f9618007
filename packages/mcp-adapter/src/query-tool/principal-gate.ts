/** Runs work for a key with at most a fixed number at once per key; see {@link createPrincipalGate}. */
export interface PrincipalGate {
  /**
   * Runs `work` once fewer than the limit run for `key`; waits its turn (first come) otherwise.
   * When `signal` aborts while the work still waits, it leaves the queue without running and the
   * returned promise rejects with the signal's reason; running work is not interrupted.
   */
  run<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Work running or waiting now, per key (for tests and diagnostics). */
  load(key: string): { running: number; waiting: number };
}

/**
 * A per-principal concurrency gate: at most `limit` pieces of work run at once for one key (a
 * caller scope), the rest wait in arrival order and start as earlier ones finish; other keys are
 * never held up. Null: no limit (work runs at once). Waiting work is only memory (a closure);
 * it is not timed out, so a caller's excess queries are answered late, never refused; work whose
 * request was cancelled (its signal aborted) is dropped from the queue, so a caller that sends
 * many queries and cancels them costs nothing later.
 */
export function createPrincipalGate(limit: number | null): PrincipalGate {
  const running = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  const release = (key: string) => {
    const next = waiting.get(key)?.shift();
    if (waiting.get(key)?.length === 0) waiting.delete(key);
    if (next !== undefined) {
      next();
      return;
    }
    const count = (running.get(key) ?? 1) - 1;
    if (count === 0) running.delete(key);
    else running.set(key, count);
  };

  const acquire = (key: string, signal: AbortSignal | undefined): Promise<void> | undefined => {
    const count = running.get(key) ?? 0;
    if (limit === null || count < limit) {
      running.set(key, count + 1);
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const queue = waiting.get(key) ?? [];
      const onAbort = () => {
        const at = queue.indexOf(turn);
        if (at !== -1) queue.splice(at, 1);
        if (queue.length === 0 && waiting.get(key) === queue) waiting.delete(key);
        reject(signal?.reason);
      };
      const turn = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      queue.push(turn);
      waiting.set(key, queue);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  };

  return {
    async run(key, work, signal) {
      if (signal?.aborted) throw signal.reason;
      const turn = acquire(key, signal);
      // A released slot passes straight to the next waiter, so `running` stays at the limit.
      if (turn !== undefined) await turn;
      try {
        return await work();
      } finally {
        release(key);
      }
    },
    load: (key) => ({ running: running.get(key) ?? 0, waiting: waiting.get(key)?.length ?? 0 }),
  };
}
