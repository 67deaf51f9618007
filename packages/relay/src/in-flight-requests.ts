/**
 * Most requests {@link createInFlightRequests} remembers: more than a relay's upstream client
 * has in flight (one per downstream request), few enough to bound its memory when answers never
 * come and no cancellation is sent.
 */
export const MAX_IN_FLIGHT_REQUESTS = 10_000;

/** The requests one HTTP client transport sent and has no answer to yet (see createInFlightRequests). */
export interface InFlightRequests {
  /** How many are in flight (0: no stream needs to be read). */
  readonly size: number;
  /**
   * Notes the JSON-RPC messages of a POST body the SDK is about to send: each request (id and
   * method) is in flight from now on, a `notifications/cancelled` ends its request. Returns the
   * ids it added, for {@link forget} when the POST fails.
   */
  noteSent(body: unknown): unknown[];
  /** The method of request `id` while it is in flight, else undefined. */
  methodOf(id: unknown): string | undefined;
  /** Ends request `id` (its answer arrived, or its POST failed). */
  forget(id: unknown): void;
}

function messagesOf(body: unknown): unknown[] {
  if (typeof body !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

/**
 * The requests in flight on one streamable HTTP client transport, by id, shared by every
 * stream its answers can arrive on: the POST that carried the request, the standalone GET
 * stream, a GET that resumes a dropped stream (Last-Event-ID), so the relay's result guard
 * treats an answer the same way wherever it arrives. An id leaves when its answer passes the
 * guard, when its POST fails, or when the SDK cancels it (a timeout sends
 * `notifications/cancelled`).
 * Limits: at most `limit` ids (the oldest is dropped first: its answer is then passed on
 * without its text kept); ids are compared as JSON.parse made them (`1` and `"1"` differ), as
 * the SDK's Protocol compares them.
 */
export function createInFlightRequests(limit = MAX_IN_FLIGHT_REQUESTS): InFlightRequests {
  const methods = new Map<unknown, string>();
  return {
    get size() {
      return methods.size;
    },
    noteSent(body) {
      const added: unknown[] = [];
      for (const message of messagesOf(body)) {
        if (typeof message !== "object" || message === null) continue;
        const { id, method, params } = message as {
          id?: unknown;
          method?: unknown;
          params?: unknown;
        };
        if (typeof method !== "string") continue;
        if (id === undefined) {
          if (
            method === "notifications/cancelled" &&
            typeof params === "object" &&
            params !== null
          ) {
            methods.delete((params as { requestId?: unknown }).requestId);
          }
          continue;
        }
        methods.delete(id);
        if (methods.size >= limit) methods.delete(methods.keys().next().value);
        methods.set(id, method);
        added.push(id);
      }
      return added;
    },
    methodOf: (id) => methods.get(id),
    forget(id) {
      methods.delete(id);
    },
  };
}
