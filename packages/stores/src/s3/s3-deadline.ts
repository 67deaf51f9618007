import type { StoreLogger } from "../shared/logger.js";

/** What a call deadline needs: its length and where a missed one is reported. */
export interface S3DeadlineContext {
  bucket: string;
  logger: StoreLogger;
  /** Milliseconds from the call's start until its response must have started. */
  timeoutMs: number;
}

/** The error a call that missed its deadline fails with (the StoreError's cause). */
export class S3DeadlineError extends Error {
  override readonly name = "S3DeadlineError";
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(`${operation}: no answer from the S3 endpoint within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Runs one S3 call under a total deadline: `run` gets an abort signal (pass it to `client.send`
 * as `abortSignal`) that fires `timeoutMs + extraMs` after the start, every attempt and backoff of
 * the SDK's retries included; the timer stops as soon as the response has started (a body that
 * streams after that is bounded by the socket idle timeout instead). A missed deadline logs one
 * warning naming the operation, bucket and deadline, and rejects with an S3DeadlineError.
 */
export async function sendWithin<T>(
  context: S3DeadlineContext,
  operation: string,
  run: (abortSignal: AbortSignal) => Promise<T>,
  extraMs = 0,
): Promise<T> {
  const timeoutMs = context.timeoutMs + extraMs;
  const controller = new AbortController();
  const missed = new S3DeadlineError(operation, timeoutMs);
  const timer = setTimeout(() => controller.abort(missed), timeoutMs);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    context.logger.warn(`[stores:s3] ${missed.message}; the call fails`, {
      operation,
      bucket: context.bucket,
      timeoutMs,
    });
    throw missed;
  } finally {
    clearTimeout(timer);
  }
}
