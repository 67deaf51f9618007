/**
 * The property under which the adapter's bounding looks for the text a structuredContent object
 * arrived as (the same `Symbol.for` key as @bounded-mcp/mcp-adapter's bounding/received-json.ts;
 * a registered symbol, so the two packages agree without a shared export).
 */
const RECEIVED_JSON = Symbol.for("@bounded-mcp/received-json");

/**
 * Attaches to `value` (a structuredContent object parsed from a line) the way to get the text it
 * was parsed from, as a non-enumerable symbol property: JSON.stringify, object spread, zod,
 * Ajv and the SDK never see it, and it goes away with the object. `text` is called when the
 * result is measured, bounded or written on (exact-message-line.ts); it should slice or check
 * once and keep its answer (the stdio client transport's does). The caller
 * promises that the text parses to `value`; whoever may change `value` afterwards must call
 * {@link forgetReceivedJson} first.
 */
export function attachReceivedJson(value: object, text: () => string | undefined): void {
  Object.defineProperty(value, RECEIVED_JSON, {
    value: text,
    enumerable: false,
    configurable: true,
    writable: true,
  });
}

/**
 * Drops the text attached to `value`, for code about to hand it to something that may change it
 * in place (a tool hook): the adapter then stores the value serialized again, as for any value
 * that did not arrive on the wire.
 */
export function forgetReceivedJson(value: unknown): void {
  if (typeof value === "object" && value !== null) Reflect.deleteProperty(value, RECEIVED_JSON);
}

/**
 * The way to get the text attached to `value` (see attachReceivedJson), or undefined: for code
 * that re-attaches it behind a check (the relay's tool hooks keep it while the value is unchanged).
 */
export function receivedJsonTextOf(value: unknown): (() => string | undefined) | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const attached: unknown = (value as Record<symbol, unknown>)[RECEIVED_JSON];
  return typeof attached === "function" ? (attached as () => string | undefined) : undefined;
}
