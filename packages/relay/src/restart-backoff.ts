/** Options of {@link computeRestartDelay}; every field has a default. */
export interface RestartBackoffOptions {
  /** Delay before the first restart; default 250 ms. */
  initialDelayMs?: number;
  /** No delay is longer than this; default 30 s. */
  maxDelayMs?: number;
  /** Each further attempt multiplies the delay by this; default 2. */
  multiplier?: number;
  /**
   * Share of the delay taken away at random, 0..1; default 0.5 (a delay falls between half and
   * all of its exponential value), so restarted replicas do not hammer an upstream in step.
   */
  jitterRatio?: number;
}

/**
 * The wait before restart attempt `attempt` (1-based): exponential, capped at `maxDelayMs`, then
 * jittered down by `random()` (in [0, 1); pass `() => 0` for exact delays in tests).
 */
export function computeRestartDelay(
  attempt: number,
  options: RestartBackoffOptions,
  random: () => number,
): number {
  const initialDelayMs = options.initialDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const multiplier = options.multiplier ?? 2;
  const jitterRatio = options.jitterRatio ?? 0.5;
  const exponential = initialDelayMs * multiplier ** Math.max(0, attempt - 1);
  const capped = Math.min(maxDelayMs, exponential);
  return Math.round(capped * (1 - jitterRatio * random()));
}
