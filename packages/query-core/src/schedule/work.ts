/**
 * A long piece of query work cut into steps. The work yields between bounded chunks (a few
 * thousand items, or about 64 Ki characters of a text search) and receives, as the value of each
 * `yield`, the milliseconds of work done so far (pauses excluded; 0 when no clock is given). One
 * code path serves both drivers: `runToEnd` never pauses, `runInSlices` lets other callers run.
 */
export type Work<T> = Generator<void, T, number>;

/**
 * Runs work to its end without pausing (the synchronous `runQuery`). With `now` (milliseconds,
 * monotonic) each yield receives the time since the start, so time limits inside the work (the
 * textSearch work limit) apply; without it every yield receives 0 and no time limit ever fires.
 */
export function runToEnd<T>(work: Work<T>, now?: () => number): T {
  const start = now === undefined ? 0 : now();
  let step = work.next(0);
  while (step.done !== true) step = work.next(now === undefined ? 0 : now() - start);
  return step.value;
}

/** How `runInSlices` shares the process. */
export interface SliceOptions {
  /** Monotonic milliseconds (tests inject a clock). */
  now: () => number;
  /** Work done between two pauses, in milliseconds (50 by default). */
  sliceMs?: number;
  /** Lets other callers run; by default it resolves on the next `setImmediate`. */
  pause?: () => Promise<void>;
}

/** The slice length of §9 rule 6: a cheap query waits at most about this long. */
export const DEFAULT_SLICE_MS = 50;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs work in slices: after each step it reads the clock, and once `sliceMs` have passed since
 * the slice began it awaits `pause` (by default `setImmediate`, so I/O and every other caller's
 * request get their turn) before the next step. Each yield receives the work time so far, pauses
 * excluded. A step itself is never cut: the slice ends at the first yield after `sliceMs`.
 */
export async function runInSlices<T>(work: Work<T>, options: SliceOptions): Promise<T> {
  const { now } = options;
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const pause = options.pause ?? nextTurn;
  let done = 0;
  let sliceStart = now();
  let step = work.next(0);
  while (step.done !== true) {
    let time = now();
    if (time - sliceStart >= sliceMs) {
      done += time - sliceStart;
      await pause();
      sliceStart = now();
      time = sliceStart;
    }
    step = work.next(done + (time - sliceStart));
  }
  return step.value;
}

/**
 * Items a chunk of a collection stage holds (filters, sort keys, grouping): small enough that one
 * chunk takes well under a millisecond for plain items, large enough that the yields between
 * chunks cost nothing measurable.
 */
export const CHUNK_ITEMS = 2_048;

/**
 * Runs `step(start, end)` over consecutive ranges covering [0, count), yielding between two
 * ranges, so a driver can pause a long stage there. `step` is called once per chunk, never per
 * item, so the loops inside it stay the plain, optimized ones.
 */
export function* inChunks(
  count: number,
  step: (start: number, end: number) => void,
  chunk: number = CHUNK_ITEMS,
): Work<void> {
  for (let start = 0; start < count; start += chunk) {
    const end = Math.min(count, start + chunk);
    step(start, end);
    if (end < count) yield;
  }
}
