import { AsyncLocalStorage } from "node:async_hooks";

/** The tools/call an attached server is answering. */
interface CurrentCall {
  toolName: string;
  /** Results boundResult already produced during this call (bounded or passed through). */
  results: WeakSet<object>;
}

const currentCall = new AsyncLocalStorage<CurrentCall>();

/**
 * Runs `work` as the handling of one tools/call of `toolName`. Inside it, `boundResult` knows
 * the tool without being told (stats per tool) and remembers what it returned, so a result that
 * an author's handler already bounded is not bounded or counted again by the attached server.
 */
export function runWithToolName<T>(toolName: string, work: () => T): T {
  return currentCall.run({ toolName, results: new WeakSet() }, work);
}

/** The tool of the tools/call being handled by an attached server, or undefined outside one. */
export function currentToolName(): string | undefined {
  return currentCall.getStore()?.toolName;
}

/** True when `result` was returned by boundResult during the current call. */
export function isAlreadyBounded(result: object): boolean {
  return currentCall.getStore()?.results.has(result) ?? false;
}

/** Remembers `result` as returned by boundResult during the current call (no-op outside one). */
export function rememberBounded(result: object): void {
  currentCall.getStore()?.results.add(result);
}
