const ENCODER = new TextEncoder();

/** The UTF-8 byte length of a string: what a JSON text costs on the wire. */
export function utf8ByteLength(text: string): number {
  return ENCODER.encode(text).length;
}

/** The UTF-8 byte length of a value's compact JSON. */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? "");
}

/**
 * A string cut to at most `maxChars` UTF-16 units, the last one an ellipsis when cut; a surrogate
 * pair is never split. Strings that fit come back unchanged.
 */
export function cutString(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Defines a key as plain data, so a `__proto__` key stays data instead of a prototype. */
export function setData(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
