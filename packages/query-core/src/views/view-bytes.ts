// What a cached view costs in bytes, counted from what it holds (README "View cache"): typed
// arrays by their buffers, plain arrays by 8 bytes a slot (a pointer or a small integer on a
// 64-bit V8 without pointer compression), and the strings and rows the engine made itself by
// their UTF-16 size plus an object header. Values shared with the parsed document (its items,
// keys and strings) are the document's and are not counted again.

/** Bytes of an object header or an array's own fields, a rough V8 figure. */
export const OBJECT_BYTES = 64;
/** Bytes of one slot of a plain array or of one own property. */
export const SLOT_BYTES = 8;

/** A plain array of `length` slots (positions, values, rows). */
export function arrayBytes(length: number): number {
  return OBJECT_BYTES + SLOT_BYTES * length;
}

/** A typed array's buffer plus its header. */
export function typedBytes(array: ArrayBufferView | null): number {
  return array === null ? 0 : OBJECT_BYTES + array.byteLength;
}

/** A string the engine made (canonical JSON of a sort key, a row label). */
export function stringBytes(text: string): number {
  return 24 + 2 * text.length;
}

/**
 * An aggregate row `{label: value, ...}` that the engine built: the object, a slot per label,
 * and each value it made (numbers boxed; strings and structured group values are the document's).
 */
export function rowBytes(row: Record<string, unknown>): number {
  let bytes = OBJECT_BYTES;
  for (const key in row) {
    bytes += SLOT_BYTES;
    if (typeof row[key] === "number") bytes += 16;
  }
  return bytes;
}

/** rowBytes of every row plus the array that holds them. */
export function rowsBytes(rows: readonly Record<string, unknown>[]): number {
  let bytes = arrayBytes(rows.length);
  for (const row of rows) bytes += rowBytes(row);
  return bytes;
}
