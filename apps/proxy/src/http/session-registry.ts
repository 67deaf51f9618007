import type { NodeHttpServerTransport } from "./node-http-transport.js";

/** One stateful HTTP session: its relay, who owns it, and how busy it is. */
export interface SessionEntry {
  /** The relay session (closing it closes the session's upstream connection and child). */
  readonly relay: { close(): Promise<void> };
  /** The session's server transport; later requests of the session are handed to it. */
  readonly transport: NodeHttpServerTransport;
  /** The principal that created it (null without --auth-tokens); only it may use the session. */
  readonly principal: string | null;
  lastActive: number;
  inFlight: number;
}

/** The live sessions of the HTTP server; see {@link createSessionRegistry}. */
export interface SessionRegistry {
  /** Sessions plus reservations: what --max-sessions caps. */
  readonly size: number;
  /**
   * Holds a slot for a session of `principal` being initialized: "ok", or which cap is reached
   * ("full": --max-sessions; "principal": --max-sessions-per-principal, for a named principal).
   */
  reserve(principal: string | null): "ok" | "full" | "principal";
  /** Gives back a reservation of `principal` that did not become a session. */
  release(principal: string | null): void;
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
 * Stateful sessions of the HTTP listener, capped by `maxSessions` and, for each authenticated
 * principal, by `maxSessionsPerPrincipal` (reservations count, so concurrent initializes cannot
 * overshoot), and closed after `idleTimeoutMs` without requests. Sessions without a principal
 * (no --auth-tokens) are capped by maxSessions only: nothing tells their callers apart. Closing a
 * session closes its upstream connection (and child).
 */
export function createSessionRegistry(options: {
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  idleTimeoutMs: number;
}): SessionRegistry {
  const sessions = new Map<string, SessionEntry>();
  let reserved = 0;
  /** Sessions plus reservations of each named principal. */
  const held = new Map<string, number>();
  const count = (principal: string | null, change: number) => {
    if (principal === null) return;
    const next = (held.get(principal) ?? 0) + change;
    if (next <= 0) held.delete(principal);
    else held.set(principal, next);
  };
  const forget = (sessionId: string) => {
    const entry = sessions.get(sessionId);
    if (entry === undefined) return;
    sessions.delete(sessionId);
    count(entry.principal, -1);
  };
  const closeEntry = async (sessionId: string, entry: SessionEntry) => {
    forget(sessionId);
    await entry.relay.close();
  };
  return {
    get size() {
      return sessions.size + reserved;
    },
    reserve(principal) {
      if (sessions.size + reserved >= options.maxSessions) return "full";
      if (principal !== null && (held.get(principal) ?? 0) >= options.maxSessionsPerPrincipal) {
        return "principal";
      }
      reserved += 1;
      count(principal, 1);
      return "ok";
    },
    release(principal) {
      reserved = Math.max(0, reserved - 1);
      count(principal, -1);
    },
    add(sessionId, entry) {
      // The reservation's principal count carries over to the session.
      reserved = Math.max(0, reserved - 1);
      sessions.set(sessionId, entry);
    },
    get: (sessionId) => sessions.get(sessionId),
    remove: forget,
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
