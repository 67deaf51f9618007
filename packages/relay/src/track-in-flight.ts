import type { JSONRPCMessage, Transport } from "./sdk/types.js";

/** A transport whose requests in flight are counted; see {@link trackInFlight}. */
export interface TrackedTransport {
  readonly transport: Transport;
  /**
   * Resolves once no downstream request is waiting for its response (at once when none is), or
   * after `maxWaitMs` when given, whichever comes first. The timer does not keep the process up.
   */
  whenIdle(maxWaitMs?: number): Promise<void>;
}

function requestId(message: JSONRPCMessage): string | number | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): string | number | undefined {
  return !("method" in message) && "id" in message ? message.id : undefined;
}

/**
 * Wraps a server-side transport (e.g. the SDK's StdioServerTransport) to know which downstream
 * requests are still unanswered, so a program that stops (its client closed stdin, a signal) can
 * send the answers in flight before it closes the upstream. A request counts until a response or
 * error with its id has been sent, or the transport closed.
 */
export function trackInFlight(inner: Transport): TrackedTransport {
  const pending = new Set<string | number>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (pending.size > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  const transport: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    async send(message, options) {
      try {
        await inner.send(message, options);
      } finally {
        const id = responseId(message);
        if (id !== undefined && pending.delete(id)) settle();
      }
    },
    get sessionId() {
      return inner.sessionId;
    },
  };
  inner.onmessage = (message, extra) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    transport.onmessage?.(message, extra);
  };
  inner.onclose = () => {
    pending.clear();
    settle();
    transport.onclose?.();
  };
  inner.onerror = (error) => transport.onerror?.(error);
  return {
    transport,
    whenIdle(maxWaitMs) {
      if (pending.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        if (maxWaitMs !== undefined) setTimeout(resolve, maxWaitMs).unref();
      });
    },
  };
}
