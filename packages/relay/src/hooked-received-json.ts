import { attachReceivedJson, receivedJsonTextOf } from "./received-json.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `current` is still the JSON value `parsed` (what JSON.parse made of the text): same
 * arrays, same own enumerable keys (order aside), numbers by Object.is (so `-0` is not `0`).
 * Iterative, so any depth is fine; stops at the first difference.
 */
export function isSameJsonValue(parsed: unknown, current: unknown): boolean {
  const pending: [unknown, unknown][] = [[parsed, current]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [left, right] = pair;
    if (Array.isArray(left)) {
      if (!Array.isArray(right) || right.length !== left.length) return false;
      for (let index = 0; index < left.length; index += 1)
        pending.push([left[index], right[index]]);
    } else if (isPlainObject(left)) {
      if (!isPlainObject(right)) return false;
      const keys = Object.keys(left);
      if (Object.keys(right).length !== keys.length) return false;
      for (const key of keys) {
        if (!Object.hasOwn(right, key)) return false;
        pending.push([left[key], right[key]]);
      }
    } else if (!Object.is(left, right)) {
      return false;
    }
  }
  return true;
}

/**
 * Before a tool hook runs on a result: the text its structuredContent arrived as stays attached
 * behind a check, so a hook that leaves the value as it was (reads it, or passes the same object
 * back through setRawCallToolResult) keeps the upstream's bytes, and one that changed it in place
 * gets it stored serialized again. The check runs when the text is first asked for (measuring
 * the result, bounding it, writing it on: exact-message-line.ts), after the hook: the text is
 * parsed and compared with the value (isSameJsonValue), and the verdict kept for later asks.
 * A value without an attached text is left alone.
 * Limits: one extra JSON.parse of the text per hooked result with structuredContent; a change
 * JSON cannot see (a number replaced by one with the same double, `12345678901234567000` for
 * `12345678901234567890`) keeps the upstream's literal; a change after the first ask is not seen
 * (whoever changes the value then must forget the text first, as for any attached text).
 */
export function keepReceivedJsonWhileUnchanged(value: unknown): void {
  const text = receivedJsonTextOf(value);
  if (text === undefined) return;
  const structured = value as object;
  let checked = false;
  let verdict: string | undefined;
  attachReceivedJson(structured, () => {
    if (checked) return verdict;
    checked = true;
    const received = text();
    if (received === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(received);
    } catch {
      return undefined;
    }
    verdict = isSameJsonValue(parsed, structured) ? received : undefined;
    return verdict;
  });
}
