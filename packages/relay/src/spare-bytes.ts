/**
 * The property under which the adapter's bounding looks for spare memory that came with a result
 * (the same `Symbol.for` key as @bounded-mcp/mcp-adapter's bounding/spare-bytes.ts; a registered
 * symbol, so the two packages agree without a shared export).
 */
const SPARE_BYTES = Symbol.for("@bounded-mcp/spare-bytes");

/**
 * Attaches to `result` (a tool result parsed from a line) the buffer the line was assembled in
 * (see the line framer's `spare`): shared memory, already mapped, that nothing else references.
 * The bounder encodes an oversized payload into it instead of a fresh allocation (the payload's
 * UTF-8 is never longer than the JSON-RPC line it was parsed from, so it fits whenever the
 * payload is the line's text or structuredContent). A non-enumerable symbol property: JSON, spread,
 * zod and the SDK never see it. It holds memory, not content: whatever happens to the result, the
 * bytes stand for nothing, so a hook that changes the result cannot make them wrong.
 * Limits: it keeps the buffer alive as long as `result` lives, unless taken.
 */
export function attachSpareBytes(result: object, spare: Buffer): void {
  Object.defineProperty(result, SPARE_BYTES, {
    value: spare,
    enumerable: false,
    configurable: true,
    writable: true,
  });
}
