import { type Logger, SILENT_LOGGER } from "@bounded-mcp/mcp-adapter";
import { errorMessage } from "./error-message.js";
import { computeRestartDelay, type RestartBackoffOptions } from "./restart-backoff.js";
import type { Client, Transport } from "./sdk/types.js";

/** The states of a supervised upstream connection. */
export type UpstreamState =
  | "idle"
  | "connecting"
  | "connected"
  | "restarting"
  | "closed"
  | "failed";

/** Options of {@link createUpstreamSupervisor}. */
export interface UpstreamSupervisorOptions {
  /** Names the upstream in log lines and errors. */
  name: string;
  /** The client to (re)connect; its handlers survive restarts because the same object is reused. */
  client: Client;
  /** A fresh transport per connection (one child process each), e.g. the linear stdio transport. */
  createTransport: () => Transport;
  /**
   * Called after each successful restart (not the first start), before requests waiting in
   * whenConnected() are let through: re-send the log level and subscriptions. A failure is logged.
   */
  onReconnect?: (client: Client) => void | Promise<void>;
  backoff?: RestartBackoffOptions;
  /** Restart attempts in a row before giving up (state "failed"); default 10. */
  maxAttempts?: number;
  /** A connection that lived this long resets the attempt count; default 30 s. */
  stableAfterMs?: number;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Clock in milliseconds; default Date.now. */
  now?: () => number;
  logger?: Logger;
}

/** A supervised upstream connection; see {@link createUpstreamSupervisor}. */
export interface UpstreamSupervisor {
  readonly client: Client;
  readonly state: UpstreamState;
  /** Successful restarts so far. */
  readonly restarts: number;
  /** Connects the first time; rejects (and stays "failed") when the upstream cannot start. */
  start(): Promise<void>;
  /**
   * Resolves once the client is connected (at once when it is); rejects when the supervisor is
   * closed or has given up. The relay awaits it before forwarding a request during a restart.
   */
  whenConnected(): Promise<void>;
  /** Stops restarting and closes the client (and with it the child). */
  close(): Promise<void>;
}

/**
 * Why the first connection failed, in the user's words: a command that does not exist says so,
 * and the upstream's last stderr lines (a transport's `stderrTail`, at most 1 KiB) are appended,
 * as that is where servers explain themselves ("None of the specified directories are
 * accessible"). Other errors are returned unchanged.
 */
export function explainStartFailure(
  error: unknown,
  name: string,
  transport: Transport | undefined,
): unknown {
  const spawnError = error as NodeJS.ErrnoException & { path?: string };
  if (spawnError?.code === "ENOENT" && spawnError.syscall?.startsWith("spawn")) {
    return Object.assign(
      new Error(
        `upstream command "${spawnError.path ?? name}" was not found: is it installed and on PATH?`,
      ),
      { cause: error },
    );
  }
  const tail = (transport as { stderrTail?: unknown } | undefined)?.stderrTail;
  if (typeof tail !== "string" || tail === "" || !(error instanceof Error)) return error;
  return Object.assign(new Error(`${error.message}; its last stderr lines:\n${tail}`), {
    cause: error,
  });
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Keeps an upstream connection alive: when its transport closes without close() being called
 * (the child crashed or exited), the same SDK Client is reconnected over a fresh transport after
 * an exponential, capped, jittered delay, which re-runs initialize; then `onReconnect` runs so the
 * relay can re-sync. Requests in flight at the crash fail (with the linear stdio transport, with
 * an McpError naming the upstream and its exit code or signal); after `maxAttempts` failed
 * restarts in a row it gives up. Limit: requests sent while restarting fail with "Not connected"
 * unless the caller awaits whenConnected() first.
 */
export function createUpstreamSupervisor(options: UpstreamSupervisorOptions): UpstreamSupervisor {
  const { client, name } = options;
  const logger = options.logger ?? SILENT_LOGGER;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? 10;
  const stableAfterMs = options.stableAfterMs ?? 30_000;
  let state: UpstreamState = "idle";
  let restarts = 0;
  let attempt = 0;
  let connectedAt = 0;
  let current: Transport | undefined;
  let timer: NodeJS.Timeout | undefined;
  let waiters: Waiter[] = [];
  let resyncing = false;
  let unexpectedCloses = 0;

  function settleWaiters(error?: Error): void {
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  async function connect(): Promise<void> {
    const transport = options.createTransport();
    current = transport;
    transport.onclose = () => {
      if (transport === current && (state === "connected" || resyncing)) onUnexpectedClose();
    };
    await client.connect(transport);
    connectedAt = now();
  }

  function onUnexpectedClose(): void {
    unexpectedCloses += 1;
    if (now() - connectedAt >= stableAfterMs) attempt = 0;
    state = "restarting";
    logger.warn(`upstream "${name}" closed unexpectedly; restarting`, { upstream: name });
    scheduleRestart();
  }

  function scheduleRestart(): void {
    attempt += 1;
    const delay = computeRestartDelay(attempt, options.backoff ?? {}, random);
    timer = setTimeout(() => void restart(), delay);
  }

  async function restart(): Promise<void> {
    timer = undefined;
    if (state !== "restarting") return;
    try {
      await connect();
    } catch (error) {
      if (state !== "restarting") return;
      logger.warn(`upstream "${name}" failed to restart (attempt ${attempt})`, {
        upstream: name,
        attempt,
        error: errorMessage(error),
      });
      if (attempt >= maxAttempts) {
        state = "failed";
        logger.error(`upstream "${name}" gave up after ${attempt} restart attempts`, {
          upstream: name,
        });
        settleWaiters(new Error(`upstream "${name}" could not be restarted`));
        return;
      }
      scheduleRestart();
      return;
    }
    if (state !== "restarting") {
      await client.close();
      return;
    }
    // Re-sync before anyone waiting is let through, so no request reaches an upstream that has
    // not got its log level and subscriptions back. A crash during the re-sync schedules another
    // restart (the transport's onclose sees `resyncing`).
    const crashesBefore = unexpectedCloses;
    resyncing = true;
    try {
      await options.onReconnect?.(client);
    } catch (error) {
      logger.error(`upstream "${name}" re-sync after restart failed`, {
        upstream: name,
        error: errorMessage(error),
      });
    } finally {
      resyncing = false;
    }
    if (state !== "restarting" || unexpectedCloses !== crashesBefore) return;
    state = "connected";
    restarts += 1;
    logger.info(`upstream "${name}" restarted`, { upstream: name, restarts });
    settleWaiters();
  }

  return {
    client,
    get state() {
      return state;
    },
    get restarts() {
      return restarts;
    },
    async start() {
      if (state !== "idle") throw new Error(`upstream "${name}" supervisor already started`);
      state = "connecting";
      try {
        await connect();
      } catch (error) {
        state = "failed";
        throw explainStartFailure(error, name, current);
      }
      if (state === "connecting") state = "connected";
    },
    whenConnected() {
      if (state === "connected") return Promise.resolve();
      if (state === "closed" || state === "failed") {
        return Promise.reject(new Error(`upstream "${name}" is ${state}`));
      }
      return new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    async close() {
      state = "closed";
      if (timer !== undefined) clearTimeout(timer);
      settleWaiters(new Error(`upstream "${name}" is closed`));
      await client.close();
    },
  };
}
