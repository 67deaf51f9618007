import { currentCallContext } from "../result-sdk/call-context.js";

/**
 * The tool of the tools/call being handled by an attached server, or undefined outside one.
 * Inside it, `boundResult` knows the tool without being told (stats per tool).
 */
export function currentToolName(): string | undefined {
  return currentCallContext()?.toolName;
}

/** True when `result` was returned by boundResult during the current call of an attached server. */
export function isAlreadyBounded(result: object): boolean {
  return currentCallContext()?.boundedResults?.has(result) ?? false;
}

/**
 * Remembers `result` as returned by boundResult during the current call, so a result that an
 * author's handler already bounded is not bounded or counted again by the attached server.
 * A no-op outside a call of an attached server (the result SDK alone does not track results).
 */
export function rememberBounded(result: object): void {
  const context = currentCallContext();
  if (context?.toolName === undefined) return;
  context.boundedResults ??= new WeakSet();
  context.boundedResults.add(result);
}
