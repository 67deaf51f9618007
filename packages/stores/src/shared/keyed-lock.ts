/** Runs async work one at a time per key, in call order; other keys run in parallel. */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** A KeyedLock that forgets a key once its queue is empty. */
export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(work, work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
