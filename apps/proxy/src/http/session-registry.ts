import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** One stateful HTTP session: its relay, who owns it, and how busy it is. */
export interface SessionEntry {
  /** The relay session (closing it closes the session's upstream connection and child). */
  readonly relay: { close(): Promise<void> };
  /** The session's server transport; later requests of the session are handed to it. */
  readonly transport: StreamableHTTPServerTransport;
  /** The principal that created it (null without --auth-tokens); only it may use the session. */
  readonly principal: string | null;
  lastActive: number;
  inFlight: number;
}

/** The live sessions of the HTTP server; see {@link createSessionRegistry}. */
export interface SessionRegistry {
  /** Sessions plus reservations: what --max-sessions caps. */
  readonly size: number;
  /** Holds a slot for a session being initialized; false when the cap is reached. */
  reserve(): boolean;
  /** Gives back a reservation that did not become a session. */
  release(): void;
  /** Turns a reservation into a session under its id. */
  add(sessionId: string, entry: SessionEntry): void;
  get(sessionId: string): SessionEntry | undefined;
  /** Forgets a session (it closed itself: DELETE, a failed initialize). */
  remove(sessionId: string): void;
  /** Closes sessions idle (nothing in flight) for at least idleTimeoutMs; gives their ids. */
  closeIdle(now: number): Promise<string[]>;
  /** Closes every session (shutdown). */
  closeAll(): Promise<void>;
}

/**
 * Stateful sessions of the HTTP listener, capped by `maxSessions` (reservations count, so
 * concurrent initializes cannot overshoot) and closed after `idleTimeoutMs` without requests.
 * Closing a session closes its upstream connection (and child).
 */
export function createSessionRegistry(options: {
  maxSessions: number;
  idleTimeoutMs: number;
}): SessionRegistry {
  const sessions = new Map<string, SessionEntry>();
  let reserved = 0;
  const closeEntry = async (sessionId: string, entry: SessionEntry) => {
    sessions.delete(sessionId);
    await entry.relay.close();
  };
  return {
    get size() {
      return sessions.size + reserved;
    },
    reserve() {
      if (sessions.size + reserved >= options.maxSessions) return false;
      reserved += 1;
      return true;
    },
    release() {
      reserved = Math.max(0, reserved - 1);
    },
    add(sessionId, entry) {
      reserved = Math.max(0, reserved - 1);
      sessions.set(sessionId, entry);
    },
    get: (sessionId) => sessions.get(sessionId),
    remove(sessionId) {
      sessions.delete(sessionId);
    },
    async closeIdle(now) {
      const idle = [...sessions].filter(
        ([, entry]) => entry.inFlight === 0 && now - entry.lastActive >= options.idleTimeoutMs,
      );
      await Promise.allSettled(idle.map(([id, entry]) => closeEntry(id, entry)));
      return idle.map(([id]) => id);
    },
    async closeAll() {
      await Promise.allSettled([...sessions].map(([id, entry]) => closeEntry(id, entry)));
    },
  };
}
