import { requestAsSent } from "./sdk/protocol.js";
import type { Client, LoggingLevel } from "./sdk/types.js";

/**
 * What a downstream client asked of its upstream that a restarted upstream has forgotten: the
 * log level (logging/setLevel) and the resource subscriptions. The relay records each such
 * request once the upstream accepted it; the supervisor's onReconnect re-sends them.
 */
export interface UpstreamSyncState {
  readonly logLevel: LoggingLevel | undefined;
  readonly subscriptions: ReadonlySet<string>;
  /** Records an accepted request (other methods are ignored). */
  record(method: string, params: unknown): void;
  /** Re-sends the log level, then every subscription, to a freshly (re)connected upstream. */
  resync(client: Client): Promise<void>;
}

function stringParam(params: unknown, key: string): string | undefined {
  const value = (params as Record<string, unknown> | undefined)?.[key];
  return typeof value === "string" ? value : undefined;
}

/** Creates the sync state of one downstream session. */
export function createUpstreamSyncState(): UpstreamSyncState {
  let logLevel: LoggingLevel | undefined;
  const subscriptions = new Set<string>();
  return {
    get logLevel() {
      return logLevel;
    },
    subscriptions,
    record(method, params) {
      if (method === "logging/setLevel") {
        logLevel = stringParam(params, "level") as LoggingLevel | undefined;
        return;
      }
      const uri = stringParam(params, "uri");
      if (uri === undefined) return;
      if (method === "resources/subscribe") subscriptions.add(uri);
      if (method === "resources/unsubscribe") subscriptions.delete(uri);
    },
    async resync(client) {
      if (logLevel !== undefined) {
        await requestAsSent(client, { method: "logging/setLevel", params: { level: logLevel } });
      }
      for (const uri of subscriptions) {
        await requestAsSent(client, { method: "resources/subscribe", params: { uri } });
      }
    },
  };
}
