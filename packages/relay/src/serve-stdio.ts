import type { Readable, Writable } from "node:stream";
import { type Logger, SILENT_LOGGER } from "@bounded-mcp/mcp-adapter";
import type { BoundedRelay, BoundedRelaySession } from "./create-bounded-relay.js";
import { errorMessage } from "./error-message.js";
import { createLinearStdioServerTransport } from "./linear-stdio-server-transport.js";
import { trackInFlight } from "./track-in-flight.js";

/** How long a stop waits for the answers in flight before closing the upstream anyway. */
export const STDIO_SHUTDOWN_GRACE_MS = 30_000;

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** Where requests arrive; default process.stdin. Its end stops the relay. */
  stdin?: Readable;
  /** Where answers go; default process.stdout. */
  stdout?: Writable;
  /**
   * Largest message read from the client, in bytes; default DEFAULT_MAX_MESSAGE_BYTES (83.2 MiB).
   * A request over it gets a JSON-RPC error for its id and serving goes on (see
   * createLinearStdioServerTransport).
   */
  maxMessageBytes?: number;
  /** Receives the "could not be started" error and dropped-message lines; silent by default. */
  logger?: Logger;
  /** Names the upstream in that error line; default "the upstream". */
  upstreamLabel?: string;
  /** Longest wait for the answers in flight when stopping; default {@link STDIO_SHUTDOWN_GRACE_MS}. */
  graceMs?: number;
  /**
   * Signals that stop serving (e.g. `["SIGINT", "SIGTERM"]`); none by default, as listening to a
   * signal changes the whole process. Each is listened to once, and removed when serving stops.
   */
  signals?: readonly NodeJS.Signals[];
}

/** One relay served over a program's stdio; see {@link serveStdio}. */
export interface StdioServing {
  /** The one downstream session (its `ready` settles once the upstream is connected). */
  readonly session: BoundedRelaySession;
  /**
   * Resolves with the exit code once serving has stopped and the session is closed: 0 after
   * stop(), the end of stdin, a listed signal or the client closing; 1 when the upstream could
   * not be started or connected (unless a stop was asked for first). The relay itself (other
   * sessions, the adapter) stays the caller's to close.
   */
  readonly ended: Promise<number>;
  /** Stops: answers still in flight are sent first (up to graceMs), then the session closes. */
  stop(): Promise<void>;
}

/**
 * Serves one stdio client with `relay`: the lifecycle both apps share. The session's upstream is
 * connected at the client's initialize; an upstream that cannot be started ends serving with
 * code 1 (the initialize gets its JSON-RPC error first); the end of stdin or a listed signal
 * stops it with code 0, after the answers in flight were sent (a client may close stdin right
 * after its last request). The client's lines are read by createLinearStdioServerTransport (no
 * 10 MiB read buffer: a request over `maxMessageBytes` fails alone). Limits: one client per process (stdio has one); the process is not
 * exited here, and log lines go to the injected logger (never stdout, which carries the protocol).
 */
export async function serveStdio(
  relay: BoundedRelay,
  options: ServeStdioOptions = {},
): Promise<StdioServing> {
  const logger = options.logger ?? SILENT_LOGGER;
  const stdin = options.stdin ?? process.stdin;
  const tracked = trackInFlight(
    createLinearStdioServerTransport({
      stdin,
      stdout: options.stdout ?? process.stdout,
      logger,
      exactToolArguments: true,
      ...(options.maxMessageBytes === undefined
        ? {}
        : { maxMessageBytes: options.maxMessageBytes }),
    }),
  );
  const session = await relay.connect(tracked.transport);
  let markEnded: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => {
    markEnded = resolve;
  });
  let exitCode = 0;
  let stopRequested = false;
  let closing: Promise<void> | undefined;
  const onStop = () => void stop();
  const close = () => {
    closing ??= (async () => {
      stdin.off("end", onStop);
      for (const signal of options.signals ?? []) process.off(signal, onStop);
      // An answer still in flight (a call, or the initialize's upstream error) is sent first.
      await tracked.whenIdle(options.graceMs ?? STDIO_SHUTDOWN_GRACE_MS);
      await session.close();
      markEnded(exitCode);
    })();
    return closing;
  };
  const stop = () => {
    stopRequested = true;
    return close();
  };
  // One client, one upstream: an upstream that cannot be started ends serving with code 1,
  // unless a stop was asked for first (stdin closed before any initialize, a signal).
  session.ready.catch((error: unknown) => {
    if (stopRequested) return;
    exitCode = 1;
    logger.error(`${options.upstreamLabel ?? "the upstream"} could not be started: exiting`, {
      error: errorMessage(error),
    });
    void close();
  });
  stdin.once("end", onStop);
  for (const signal of options.signals ?? []) process.once(signal, onStop);
  void session.closed.then(close);
  return { session, ended, stop };
}
