/**
 * The property a transport that reads JSON-RPC lines itself (the relay's linear stdio client
 * transport) sets on a tool result parsed from a large line: the buffer the line was assembled
 * in, shared memory (a SharedArrayBuffer) that nothing else references any more. A registered
 * symbol (`Symbol.for`), so the relay sets it without a public export of this package;
 * non-enumerable, so JSON.stringify, spread and the SDK never see it.
 */
const SPARE_BYTES = Symbol.for("@bounded-mcp/spare-bytes");

/**
 * Takes the spare memory a transport attached to `result` (see SPARE_BYTES), removing it so it is
 * used once: a Buffer over a SharedArrayBuffer whose pages are already mapped, for the bounder to
 * encode the payload into instead of a fresh allocation (which costs a page fault per 4 KiB, a
 * large part of the encoding's time, and a second copy of the payload's size in memory beside the
 * line's). Undefined when there is none or it is not shared memory. It holds no content: any
 * result may carry it, changed by a hook or not.
 */
export function takeSpareBytes(result: unknown): Buffer | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const spare: unknown = (result as Record<symbol, unknown>)[SPARE_BYTES];
  if (spare === undefined) return undefined;
  Reflect.deleteProperty(result, SPARE_BYTES);
  return Buffer.isBuffer(spare) && spare.buffer instanceof SharedArrayBuffer ? spare : undefined;
}
