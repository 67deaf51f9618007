/**
 * The property a transport that reads JSON-RPC lines itself (the relay's linear stdio client
 * transport) sets on a structuredContent object it parsed: a function giving the text the value
 * was parsed from. A registered symbol (`Symbol.for`), so the relay sets it without a public
 * export of this package; non-enumerable, so JSON.stringify, spread and the SDK never see it.
 */
const RECEIVED_JSON = Symbol.for("@bounded-mcp/received-json");

/**
 * The text `value` arrived as on the wire, when its transport attached it (see RECEIVED_JSON),
 * else undefined (a value built in process, or parsed by the SDK's own transports: streamable
 * HTTP, the SDK's stdio). Stored as the upstream's bytes (SPEC.md §10) instead of the value
 * serialized again. Limits: trusts the transport that the text parses to `value`; a hook that
 * changes the value in place must have dropped the text first (the relay does so).
 */
export function receivedJsonOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const attached: unknown = (value as Record<symbol, unknown>)[RECEIVED_JSON];
  if (typeof attached !== "function") return undefined;
  const text: unknown = attached();
  return typeof text === "string" ? text : undefined;
}

/**
 * Drops the text a transport attached to `value` (see RECEIVED_JSON), once its bytes are encoded
 * for the store: the value may live on as a cached document, and the attached text (a slice of
 * the upstream's whole JSON-RPC line, which it keeps alive) would stay with it, a second copy of
 * the payload for the artifact's life in the cache. Invisible otherwise (a non-enumerable symbol).
 */
export function dropReceivedJson(value: unknown): void {
  if (typeof value === "object" && value !== null) Reflect.deleteProperty(value, RECEIVED_JSON);
}
